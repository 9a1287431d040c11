import type { LanguageShare } from './types.ts';

// Programming and markup languages only: data and prose (JSON, YAML, Markdown) say little about a codebase.
// biome-ignore format: a lookup table reads better packed.
const byExtension: Record<string, string> = {
  ts: 'TypeScript', tsx: 'TypeScript', mts: 'TypeScript', cts: 'TypeScript',
  js: 'JavaScript', jsx: 'JavaScript', mjs: 'JavaScript', cjs: 'JavaScript',
  py: 'Python', pyi: 'Python', go: 'Go', rs: 'Rust', java: 'Java', kt: 'Kotlin', kts: 'Kotlin',
  scala: 'Scala', groovy: 'Groovy', gradle: 'Groovy', rb: 'Ruby', php: 'PHP', cs: 'C#', fs: 'F#',
  c: 'C', h: 'C', cc: 'C++', cpp: 'C++', cxx: 'C++', hpp: 'C++', hh: 'C++', hxx: 'C++',
  m: 'Objective-C', mm: 'Objective-C', swift: 'Swift', dart: 'Dart', lua: 'Lua', pl: 'Perl', pm: 'Perl',
  r: 'R', jl: 'Julia', ex: 'Elixir', exs: 'Elixir', erl: 'Erlang', hs: 'Haskell', clj: 'Clojure',
  cljs: 'Clojure', ml: 'OCaml', zig: 'Zig', nim: 'Nim', sh: 'Shell', bash: 'Shell', zsh: 'Shell',
  ps1: 'PowerShell', sql: 'SQL', html: 'HTML', htm: 'HTML', css: 'CSS', scss: 'SCSS', sass: 'SCSS',
  less: 'Less', vue: 'Vue', svelte: 'Svelte', astro: 'Astro', proto: 'Protocol Buffers', tf: 'HCL',
  sol: 'Solidity',
};

const byName: Record<string, string> = { Dockerfile: 'Dockerfile', Makefile: 'Makefile', Rakefile: 'Ruby' };

/** The language of a file from its extension (or its whole name for Dockerfile, Makefile); null if unknown. */
export function languageOf(path: string): string | null {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
  return byExtension[extension] ?? byName[name] ?? null;
}

/** File counts per language, most files first (ties by name), with each one's share in percent. */
export function languageShares(files: readonly string[]): LanguageShare[] {
  const counts = new Map<string, number>();
  for (const file of files) {
    const language = languageOf(file);
    if (language) counts.set(language, (counts.get(language) ?? 0) + 1);
  }
  const total = [...counts.values()].reduce((sum, count) => sum + count, 0);
  return [...counts]
    .map(([language, count]) => ({
      language,
      files: count,
      percent: Math.round((count / total) * 1000) / 10,
    }))
    .sort((a, b) => b.files - a.files || a.language.localeCompare(b.language));
}
