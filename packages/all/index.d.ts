export * from '@keel/runtime';
