import type { LanguageShare } from './types.ts';

// Programming and markup languages only: data and prose (JSON, YAML, Markdown) say little about a codebase.
// biome-ignore format: a lookup table reads better packed.
const byExtension = new Map(Object.entries({
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
}));

const byName = new Map([
  ['Dockerfile', 'Dockerfile'],
  ['Makefile', 'Makefile'],
  ['Rakefile', 'Ruby'],
]);

/**
 * The language of a file from its name: by its extension (`dot`: the index of the name's last '.', -1 for
 * none; a leading dot is no extension), or by the whole name for Dockerfile, Makefile; null if unknown.
 */
export function languageOfName(name: string, dot: number): string | null {
  const language = dot > 0 ? byExtension.get(name.slice(dot + 1).toLowerCase()) : undefined;
  return language ?? byName.get(name) ?? null;
}

/** The language of a file from its path (see `languageOfName`). */
export function languageOf(path: string): string | null {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return languageOfName(name, name.lastIndexOf('.'));
}

/** Language shares from file counts per language: most files first (ties by name), each in percent. */
export function languageShares(counts: ReadonlyMap<string, number>): LanguageShare[] {
  let total = 0;
  for (const count of counts.values()) total += count;
  return [...counts]
    .map(([language, count]) => ({
      language,
      files: count,
      percent: Math.round((count / total) * 1000) / 10,
    }))
    .sort((a, b) => b.files - a.files || a.language.localeCompare(b.language));
}
