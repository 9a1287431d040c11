// The `ignore` package (MIT): git's ignore-file rules, as `git check-ignore` applies them. @keel/runtime keeps
// exactly three dependencies, so `ignore` is only a devDependency: sources and tests import the npm package
// through this module, and the build (scripts/build.ts) replaces this module's compiled file in dist/ with a
// bundle of the package and its licence notice. Nothing else may import `ignore` directly.
import ignore, { type Ignore } from 'ignore';

export type { Ignore };
export { ignore };
