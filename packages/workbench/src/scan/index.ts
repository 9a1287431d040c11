// A real scan of a repository (files, languages, manifests, entry points, tests, tree) that grounds the
// generation of project knowledge in facts rather than in what a model guesses.

export { scanRepository } from './scan-repository.ts';
export { scanToMarkdown } from './scan-to-markdown.ts';
export type { LanguageShare, Manifest, RepositoryScan } from './types.ts';
