// A repository's verification commands (issue #26), found from its files alone: nothing is run. A missing,
// unreadable, oversized or malformed file contributes nothing rather than failing the detection. The
// commands are built from fixed words only (script and target names we chose), never from a file's text,
// so a hostile repository cannot smuggle a command line through here. A symbolic link (`package.json ->
// ~/.config/x.json`, `tests -> /`) is never read or looked through: it counts as absent.
import { parse as parseToml } from 'smol-toml';
import { entryKind, isDirectory, isFile, readSmallFile } from '../files/index.ts';

export interface CheckCommand {
  /** What it checks, e.g. 'test', 'lint', 'typecheck', 'build'. */
  name: 'test' | 'lint' | 'typecheck' | 'build';
  /** The command line to run at the repository's root, e.g. 'npm test' or 'cargo test'. */
  command: string;
  /** Where it was found, in words, e.g. 'package.json scripts.test'. */
  source: string;
}

type CheckName = CheckCommand['name'];

const checkOrder: readonly CheckName[] = ['test', 'lint', 'typecheck', 'build'];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// --- package.json -------------------------------------------------------------------------------------

// What `npm init` writes as scripts.test: a test script that only fails.
const npmPlaceholderTest = /^echo\s+["']?Error: no test specified["']?\s*&&\s*exit\s+1$/;

type Runner = (script: string) => string;

// The lockfile names the package manager; npm when there is none. Checked in this order.
const lockfileRunners: readonly [string, Runner][] = [
  ['pnpm-lock.yaml', (script) => (script === 'test' ? 'pnpm test' : `pnpm run ${script}`)],
  ['yarn.lock', (script) => `yarn ${script}`],
  // `bun test` is bun's own test runner, not the script: always `bun run`.
  ['bun.lockb', (script) => `bun run ${script}`],
  ['bun.lock', (script) => `bun run ${script}`],
];

const npmRunner: Runner = (script) => (script === 'test' ? 'npm test' : `npm run ${script}`);

// Script names per check, first present wins.
const scriptNames: Record<CheckName, readonly string[]> = {
  test: ['test'],
  lint: ['lint'],
  typecheck: ['typecheck', 'type-check', 'tsc'],
  build: ['build'],
};

async function runnerFor(dir: string): Promise<Runner> {
  for (const [lockfile, runner] of lockfileRunners) {
    if (await isFile(dir, lockfile)) return runner;
  }
  return npmRunner;
}

async function fromPackageJson(dir: string): Promise<CheckCommand[]> {
  const text = await readSmallFile(dir, 'package.json');
  if (text === undefined) return [];
  let manifest: unknown;
  try {
    manifest = JSON.parse(text);
  } catch {
    return [];
  }
  if (!isRecord(manifest) || !isRecord(manifest.scripts)) return [];
  const scripts = manifest.scripts;
  const usable = (script: string): boolean => {
    const body = scripts[script];
    if (typeof body !== 'string' || body.trim() === '') return false;
    return !(script === 'test' && npmPlaceholderTest.test(body.trim()));
  };
  const run = await runnerFor(dir);
  const found: CheckCommand[] = [];
  for (const name of checkOrder) {
    const script = scriptNames[name].find(usable);
    if (script) found.push({ name, command: run(script), source: `package.json scripts.${script}` });
  }
  return found;
}

// --- Makefile ------------------------------------------------------------------------------------------

// GNU make's own search order: the first of these that exists is the makefile.
const makefileNames = ['GNUmakefile', 'makefile', 'Makefile'];

// A rule line: one or more target names, then ':' or '::' but not an assignment (':=', '::=', ':::=').
const ruleLine = /^([A-Za-z0-9_.-]+(?:[ \t]+[A-Za-z0-9_.-]+)*)[ \t]*:(?!:*=)(.*)$/;
// A target-specific variable (`test: FOO = 1`) names a target without giving it a rule.
const targetVariable = /^\s*(?:export\s+|override\s+)?[A-Za-z_][A-Za-z0-9_]*\s*(?:[:+?!]|::|:::)?=/;

/** The targets that rule lines of a makefile define. */
function makeTargets(text: string): Set<string> {
  const targets = new Set<string>();
  for (const line of text.split(/\r?\n/)) {
    const match = ruleLine.exec(line);
    if (!match || targetVariable.test((match[2] ?? '').replace(/^:/, ''))) continue;
    for (const target of (match[1] ?? '').split(/[ \t]+/)) targets.add(target);
  }
  return targets;
}

async function fromMakefile(dir: string): Promise<CheckCommand[]> {
  for (const file of makefileNames) {
    // Existence decides which makefile make would use, even if we then cannot (or will not) read it: make
    // follows a link, so a linked makefile is the one it would use, and we read none.
    const kind = await entryKind(dir, file).catch(() => 'missing');
    if (kind !== 'file' && kind !== 'link') continue;
    const text = await readSmallFile(dir, file);
    if (text === undefined) return [];
    const targets = makeTargets(text);
    const found: CheckCommand[] = [];
    const add = (name: CheckName, target: string): void => {
      if (targets.has(target)) {
        found.push({ name, command: `make ${target}`, source: `${file} target ${target}` });
      }
    };
    add('test', targets.has('test') ? 'test' : 'check');
    add('lint', 'lint');
    add('build', 'build');
    return found;
  }
  return [];
}

// --- pyproject.toml ------------------------------------------------------------------------------------

function parseTomlOrUndefined(text: string): Record<string, unknown> | undefined {
  try {
    return parseToml(text) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

function tableAt(document: Record<string, unknown>, path: string): Record<string, unknown> | undefined {
  let value: unknown = document;
  for (const key of path.split('.')) value = isRecord(value) ? value[key] : undefined;
  return isRecord(value) ? value : undefined;
}

/** The requirement name of a PEP 508 string (`pytest>=8; python_version>"3.9"` → `pytest`). */
function requirementName(spec: unknown): string {
  return typeof spec === 'string' ? (/^\s*([A-Za-z0-9][A-Za-z0-9._-]*)/.exec(spec)?.[1] ?? '') : '';
}

/** Every dependency name a pyproject declares: PEP 621, optional extras, dependency groups and Poetry. */
function pyprojectDependencies(toml: Record<string, unknown>): string[] {
  const arrays: unknown[] = [tableAt(toml, 'project')?.dependencies];
  arrays.push(...Object.values(tableAt(toml, 'project.optional-dependencies') ?? {}));
  arrays.push(...Object.values(tableAt(toml, 'dependency-groups') ?? {}));
  const names = arrays.flatMap((list) => (Array.isArray(list) ? list.map(requirementName) : []));
  const poetry = tableAt(toml, 'tool.poetry');
  const poetryTables = [poetry?.dependencies, poetry?.['dev-dependencies']];
  for (const group of Object.values(tableAt(toml, 'tool.poetry.group') ?? {})) {
    if (isRecord(group)) poetryTables.push(group.dependencies);
  }
  for (const table of poetryTables) if (isRecord(table)) names.push(...Object.keys(table));
  return names.map((name) => name.toLowerCase());
}

/** Why we take the project to use pytest, or undefined when nothing says so. */
async function pytestSource(dir: string, toml: Record<string, unknown>): Promise<string | undefined> {
  if (tableAt(toml, 'tool.pytest')) return 'pyproject.toml [tool.pytest]';
  if (pyprojectDependencies(toml).includes('pytest')) return 'pyproject.toml pytest dependency';
  for (const file of ['pytest.ini', 'tox.ini']) if (await isFile(dir, file)) return file;
  return (await isDirectory(dir, 'tests')) ? 'tests/ folder' : undefined;
}

async function fromPyproject(dir: string): Promise<CheckCommand[]> {
  const text = await readSmallFile(dir, 'pyproject.toml');
  const toml = text === undefined ? undefined : parseTomlOrUndefined(text);
  if (!toml) return [];
  const found: CheckCommand[] = [];
  const testSource = await pytestSource(dir, toml);
  if (testSource) found.push({ name: 'test', command: 'python -m pytest', source: testSource });
  if (tableAt(toml, 'tool.ruff')) {
    found.push({ name: 'lint', command: 'ruff check .', source: 'pyproject.toml [tool.ruff]' });
  }
  if (tableAt(toml, 'tool.mypy')) {
    found.push({ name: 'typecheck', command: 'mypy .', source: 'pyproject.toml [tool.mypy]' });
  }
  return found;
}

// --- Cargo.toml and go.mod ----------------------------------------------------------------------------

async function fromCargoToml(dir: string): Promise<CheckCommand[]> {
  const text = await readSmallFile(dir, 'Cargo.toml');
  if (text === undefined || !parseTomlOrUndefined(text)) return [];
  return [
    { name: 'test', command: 'cargo test', source: 'Cargo.toml' },
    { name: 'lint', command: 'cargo clippy --all-targets', source: 'Cargo.toml' },
    { name: 'build', command: 'cargo build', source: 'Cargo.toml' },
  ];
}

async function fromGoMod(dir: string): Promise<CheckCommand[]> {
  const text = await readSmallFile(dir, 'go.mod');
  // A go.mod without its module directive is not one the go tool accepts.
  if (text === undefined || !/^\s*module\s+\S/m.test(text)) return [];
  return [
    { name: 'test', command: 'go test ./...', source: 'go.mod' },
    { name: 'lint', command: 'go vet ./...', source: 'go.mod' },
    { name: 'build', command: 'go build ./...', source: 'go.mod' },
  ];
}

// First match wins per check name, in this order of sources.
const sources = [fromPackageJson, fromMakefile, fromPyproject, fromCargoToml, fromGoMod];

/** The verification commands of the repository at `dir`, in the order test, lint, typecheck, build; at most one per name. */
export async function detectChecks(dir: string): Promise<CheckCommand[]> {
  const chosen = new Map<CheckName, CheckCommand>();
  for (const source of sources) {
    for (const check of await source(dir)) {
      if (!chosen.has(check.name)) chosen.set(check.name, check);
    }
  }
  return checkOrder.flatMap((name) => {
    const check = chosen.get(name);
    return check ? [check] : [];
  });
}

/** The checks found in the repository at `dir`, as a project stores them (default timeout 10 minutes). */
export async function checkSettingsOf(
  dir: string,
): Promise<{ name: string; command: string; timeout_ms: number }[]> {
  return (await detectChecks(dir)).map(({ name, command }) => ({ name, command, timeout_ms: 600_000 }));
}
