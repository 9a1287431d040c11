// The SDK, re-exported: `import { createRuntime } from '@keel/all'` is `@keel/runtime`.
export * from '@keel/runtime';
