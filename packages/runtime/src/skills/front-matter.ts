import { parseSimpleFrontMatter } from './simple-front-matter.ts';

export type FrontMatter =
  | { ok: true; data: Record<string, unknown>; body: string }
  | { ok: false; problem: string };

// `---` alone on the first line, YAML, then `---` alone on a line; CRLF files and a BOM are accepted.
const block = /^\uFEFF?---[ \t]*\r?\n(?:([\s\S]*?)\r?\n)?---[ \t]*(?:\r?\n|$)/;

// Loaded on first use, and only for front matter that is more than `key: value` lines: every `keel` command
// imports the runtime, and every run reads the SKILL.md files. `yaml` is an optional peer of the runtime
// (the `cli` and `all` installs bring it): without it, such skills are not loaded and each one's warning
// names the package to install.
let yaml: Promise<typeof import('yaml') | undefined> | undefined;

/** Splits a Markdown file into its YAML front matter (an object) and the body after it. */
export async function parseFrontMatter(text: string): Promise<FrontMatter> {
  const match = block.exec(text);
  if (!match) return { ok: false, problem: 'it does not begin with YAML front matter between --- lines' };
  const body = text.slice(match[0].length);
  const simple = parseSimpleFrontMatter(match[1] ?? '');
  if (simple) return { ok: true, data: simple, body };
  yaml ??= import('yaml').catch((error: { code?: unknown }) => {
    if (error.code === 'ERR_MODULE_NOT_FOUND') return undefined;
    throw error;
  });
  const parser = await yaml;
  if (!parser)
    return { ok: false, problem: 'reading its front matter needs the yaml package (npm install yaml)' };
  let data: unknown;
  try {
    data = parser.parse(match[1] ?? '');
  } catch (error) {
    const reason = (error as Error).message.split('\n')[0];
    return { ok: false, problem: `its front matter is not valid YAML (${reason})` };
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    return { ok: false, problem: 'its front matter is not a YAML mapping of fields' };
  }
  return { ok: true, data: data as Record<string, unknown>, body };
}
