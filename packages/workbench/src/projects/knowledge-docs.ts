import type { KnowledgeLayer, Project } from './types.ts';

/** The generated layers of one repository, by layer. */
export type RepositoryKnowledge = Partial<Record<KnowledgeLayer, string>>;

/** `project.md`: the project's name and description, then every repository's index layer. */
export function projectMarkdown(project: Project, layers: Map<string, RepositoryKnowledge>): string {
  const parts = [`# ${project.name}`, '', project.description.trim() || '(no description)', ''];
  for (const repository of project.repositories) {
    parts.push(`## ${repository.name} (${repository.type})`, '', `Path: \`${repository.path}\``, '');
    parts.push(demoteHeadings(layers.get(repository.name)?.index ?? '(no index)').trim(), '');
  }
  return `${parts.join('\n').trim()}\n`;
}

/**
 * `constitution.md`: the rules every change follows. Deliberately AI-free in its frame (a fixed template,
 * so its general rules never drift with a model's mood), filled with facts from the scan and the
 * "Conventions" sections the model wrote in the structure and modules layers.
 */
export function constitutionMarkdown(
  project: Project,
  layers: Map<string, RepositoryKnowledge>,
  facts: Map<string, string[]>,
): string {
  const parts = [
    `# Constitution of ${project.name}`,
    '',
    "Rules for every change made in this project. Written by the workbench from each repository's scan and the",
    '"Conventions" sections of its structure and modules knowledge.',
    '',
    '## General rules',
    '',
    '- Work only on the task branch; never commit to, or push, the base branch.',
    '- Make the smallest change that does the todo at hand; do not reformat or rename unrelated code.',
    "- Follow each repository's own conventions below; when they are silent, follow the surrounding code.",
    '- Keep the repository building and its tests passing; add or update tests with behaviour changes.',
    '',
  ];
  for (const repository of project.repositories) {
    parts.push(`## ${repository.name} (${repository.type})`, '');
    for (const fact of facts.get(repository.name) ?? []) parts.push(`- ${fact}`);
    if ((facts.get(repository.name) ?? []).length > 0) parts.push('');
    const knowledge = layers.get(repository.name) ?? {};
    for (const layer of ['structure', 'modules'] as const) {
      const conventions = conventionsSection(knowledge[layer] ?? '');
      if (conventions) parts.push(`### Conventions (from ${layer})`, '', conventions, '');
    }
  }
  return `${parts.join('\n').trim()}\n`;
}

/** The body of the first "Conventions" heading (any level) up to the next heading of the same or a higher level. */
export function conventionsSection(markdown: string): string {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => /^#{1,6}\s+conventions\b/i.test(line.trim()));
  if (start === -1) return '';
  const level = (lines[start]?.match(/^#+/)?.[0].length ?? 2) as number;
  const body: string[] = [];
  for (const line of lines.slice(start + 1)) {
    const heading = line.match(/^(#{1,6})\s/);
    if (heading && (heading[1]?.length ?? 0) <= level) break;
    body.push(line);
  }
  return body.join('\n').trim();
}

/** Pushes headings two levels down so a layer nests under its repository's heading. */
function demoteHeadings(markdown: string): string {
  return markdown.replace(/^(#{1,4})(\s)/gm, '##$1$2');
}
