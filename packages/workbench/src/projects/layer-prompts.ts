import type { KnowledgeLayer, Repository } from './types.ts';

const asks: Record<KnowledgeLayer, string> = {
  structure:
    'Describe the STRUCTURE of this repository: its top-level layout, what each important directory holds, ' +
    'the build, test and run commands, and the languages and frameworks. End with a section "## Conventions" ' +
    'listing the coding conventions a contributor must follow (naming, layout, tests, style), as bullets.',
  business_flow:
    'Describe the BUSINESS FLOW of this repository: what the product does for its users, the main use cases ' +
    'and how a request or action travels through the code (entry point to storage and back).',
  modules:
    'Describe the MODULES of this repository: each significant module or package, its responsibility, its ' +
    'public interface and what it depends on. End with a section "## Conventions" listing how modules are ' +
    'organised and how a new one should be added, as bullets.',
  index:
    'Write a short INDEX of this repository for an engineer new to it: one paragraph on its purpose, then ' +
    'where to find what (entry points, configuration, tests), as a list of paths with one line each.',
};

/** The prompt of one knowledge layer, grounded in the repository's scan. */
export function layerPrompt(repository: Repository, layer: KnowledgeLayer, scanMarkdown: string): string {
  return [
    `You are documenting the ${repository.type} repository "${repository.name}" at ${repository.path}.`,
    asks[layer],
    'Answer with Markdown only (no preamble). Read files with your tools where the scan is not enough; do not change any file.',
    '',
    'Here is an automatic scan of the repository:',
    '',
    scanMarkdown,
  ].join('\n');
}

/** What the session log shows as the user's message (the full prompt carries the whole scan). */
export function layerRequestShown(repository: Repository, layer: KnowledgeLayer): string {
  return `Generate the ${layer} knowledge of repository ${repository.name} (grounded in its scan).`;
}
