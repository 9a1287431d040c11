import type { Project } from '../store/index.ts';
import type { Workflow } from '../workflow/index.ts';

/**
 * The project guide: `AGENTS.md` at the top of the project's directory, the file Codex, opencode and other
 * coding agents read for a repository's conventions (docs/decisions/2026-11-23-web-projects-and-tasks.md).
 */
export const guideFileName = 'AGENTS.md';

/**
 * The init run: the agent studies the project (reading, no commands) and writes the guide with its file
 * tools; then a tool step reads the guide back, so a run whose agent wrote none fails instead of
 * passing silently. The run's output is the guide as it was written.
 */
export function guideWorkflow(): Workflow {
  return {
    name: 'project-init',
    root: {
      id: 'init',
      kind: 'sequence',
      steps: [
        { id: 'analyse', kind: 'agent', prompt: '{{input.prompt}}', exclude_tools: ['exec_command'] },
        { id: 'check_guide', kind: 'tool', tool: 'read_file', params: { path: guideFileName } },
      ],
    },
  };
}

/** What the init run asks of the model. */
export function guidePrompt(project: Project, guideExists: boolean): string {
  const lines = [
    `Initialise the project guide ${guideFileName} for the project "${project.name}".`,
    '',
    guideExists
      ? `${guideFileName} already exists at the top of the project directory: read it first, then update it ` +
        'with edit_file or write_file. Keep what is still accurate, above all anything a person wrote by hand; ' +
        'correct what is out of date and add what is missing.'
      : `Create ${guideFileName} at the top of the project directory with write_file.`,
    '',
    'Study the project first: list its directories, read the README, the manifests (package.json, ' +
      'pyproject.toml, Cargo.toml, go.mod, Makefile, …), the CI configuration and a few representative ' +
      'source and test files. Do not run commands.',
    '',
    `Then write ${guideFileName} as a concise guide (under about 300 lines) for a coding agent or a new ` +
      'contributor, with sections for: what the project is; how the code is laid out; how to build, run, ' +
      'test and lint it (exact commands); coding conventions (style, naming, error handling, tests); and ' +
      'anything a change must respect. State only what the files show; do not invent commands.',
    '',
    `Write no other file. When ${guideFileName} is written, answer with a two-line summary of what it covers.`,
  ];
  if (project.description) lines.push('', `The project's own description: ${project.description}`);
  if (project.code_paths.length > 0) {
    lines.push('', `Further code of this project lives in: ${project.code_paths.join(', ')}.`);
  }
  return lines.join('\n');
}
