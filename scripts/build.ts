// Builds every package into its `dist/`: JavaScript and type declarations from the TypeScript compiler,
// plus the non-code files the sources read at run time. Published entry points (`exports`) point at
// `dist/`, because Node does not strip types under node_modules. The `keel` program runs a bundle of
// `dist/` instead (see `bundles`). Run by `npm install` (prepare), `npm test` and `npm run build`;
// `--package <name>` builds one.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { build } from 'rolldown';

/** In dependency order: a package's declarations must exist before a dependant is compiled. */
const packages = [
  'testkit',
  'runtime',
  'protocol',
  'web-client',
  'service',
  'workbench-client',
  'cli',
  'server',
  'workbench',
  // After the workbench: its `/workbench` dialect implements the workbench's store contract.
  'store-postgres',
  'desktop',
];

/** Files the sources read beside themselves at run time, copied from src/ into dist/. */
const assets: Record<string, string[]> = { runtime: ['skills/builtin'] };

/**
 * Programs whose start-up matters run one bundle of our code and the pure-JavaScript packages on their hot
 * path: loading ~600 small modules cost `keel run` about 200 ms before its first model request; one bundle
 * (split per command) costs a fraction. Everything else (optional peers, native or asset-carrying
 * packages) stays an ordinary import from node_modules. Chunks sit flat in `bundle/`, beside the package's
 * `package.json` one level up, as `dist/` does, so `../package.json` and `./builtin/` resolve the same.
 */
const bundles: Record<string, { entry: string; inline: string[]; assets: [string, string][] }> = {
  cli: {
    entry: 'dist/main.js',
    inline: ['@keel/runtime', 'openai', 'zod', 'diff', 'commander', 'yaml'],
    assets: [['../runtime/src/skills/builtin', 'bundle/builtin']],
  },
};

/**
 * Packages a package's sources use but it may not depend on (the runtime keeps exactly three dependencies):
 * each is imported through one local module, whose compiled file in `dist/` is replaced here by a bundle of
 * the package with its licence notice, so the published package carries its own copy. The npm package is a
 * devDependency, which the sources and tests use as it is (docs/decisions/2026-11-23-ignore-rules.md).
 */
const vendored: Record<string, { module: string; licence: string }[]> = {
  runtime: [{ module: 'tools/search/vendor/ignore.js', licence: 'ignore/LICENSE-MIT' }],
};

/**
 * Browser apps, built by Vite into their `dist/`: the workbench SPA (which the workbench serves at `/`),
 * then keel-web's console into `dist/console/` (served at `/console`); each reports its first-load size.
 */
const webApps: Record<string, (readonly [string, string[]])[]> = {
  'workbench-web': [
    ['vite', ['build', '--logLevel', 'warn']],
    ['vite', ['build', '--config', 'vite.console.config.ts', '--logLevel', 'warn']],
    [process.execPath, ['scripts/first-load.ts']],
    [process.execPath, ['scripts/first-load.ts', 'console/index.html']],
  ],
};

const root = join(import.meta.dirname, '..');
const only = process.argv.includes('--package')
  ? process.argv[process.argv.indexOf('--package') + 1]
  : undefined;

for (const name of packages) {
  if (only && only !== name) continue;
  const dir = join(root, 'packages', name);
  if (!existsSync(join(dir, 'tsconfig.build.json'))) continue;
  rmSync(join(dir, 'dist'), { recursive: true, force: true });
  const tsc = spawnSync('tsc', ['-p', join(dir, 'tsconfig.build.json')], { stdio: 'inherit', cwd: root });
  if (tsc.status !== 0) {
    console.error(`build: @keel/${name} did not compile`);
    process.exit(tsc.status ?? 1);
  }
  for (const asset of assets[name] ?? []) {
    cpSync(join(dir, 'src', asset), join(dir, 'dist', asset), { recursive: true });
  }
  rewriteDeclarationImports(join(dir, 'dist'));
  for (const entry of vendored[name] ?? []) await vendorModule(dir, entry);
  const bundle = bundles[name];
  if (bundle) await bundleProgram(dir, bundle);
}

for (const [name, steps] of Object.entries(webApps)) {
  if (only && only !== name) continue;
  const dir = join(root, 'packages', name);
  // Production React, whatever NODE_ENV the caller (a test runner, say) has set.
  const env = { ...process.env, NODE_ENV: 'production' };
  for (const [command, args] of steps) {
    const step = spawnSync(command, args, { stdio: 'inherit', cwd: dir, env });
    if (step.status !== 0) {
      console.error(`build: @keel/${name} did not build`);
      process.exit(step.status ?? 1);
    }
  }
}

async function bundleProgram(dir: string, bundle: (typeof bundles)[string]): Promise<void> {
  rmSync(join(dir, 'bundle'), { recursive: true, force: true });
  const inlined = (id: string) => bundle.inline.some((name) => id === name || id.startsWith(`${name}/`));
  await build({
    input: join(dir, bundle.entry),
    platform: 'node',
    // Relative and absolute ids are files already being bundled; bare ids are packages.
    external: (id) => !id.startsWith('.') && !id.startsWith('/') && !inlined(id),
    // Minified (locals renamed, whitespace gone): the smaller source and code cache make `keel run` reach
    // its first request ~12 ms sooner. Functions and classes keep their names (error names, stack traces);
    // dist/ keeps the readable code.
    output: { dir: join(dir, 'bundle'), format: 'esm', minify: true, keepNames: true },
    logLevel: 'warn',
  });
  for (const [from, to] of bundle.assets) cpSync(join(dir, from), join(dir, to), { recursive: true });
}

/** Replaces a compiled module that re-exports a package with a self-contained bundle of it (see `vendored`). */
async function vendorModule(dir: string, entry: (typeof vendored)[string][number]): Promise<void> {
  const file = join(dir, 'dist', entry.module);
  const { output } = await build({
    input: file,
    platform: 'node',
    write: false,
    output: { format: 'esm' },
    logLevel: 'warn',
  });
  const [chunk] = output;
  const licencePath = createRequire(join(dir, 'package.json')).resolve(entry.licence);
  const notice = readFileSync(licencePath, 'utf8')
    .trim()
    .split('\n')
    .map((line) => ` * ${line}`.trimEnd());
  const [packageName] = entry.licence.split('/');
  const header = `/*!\n * Bundled from the npm package ${packageName}; its licence:\n *\n${notice.join('\n')}\n */\n`;
  writeFileSync(file, header + chunk.code);
}

/**
 * The compiler rewrites `./x.ts` to `./x.js` in JavaScript but leaves declarations as written; a user's
 * TypeScript then looks for `x.ts`, which is not published. Point them at the `.js` (whose `.d.ts` sits beside it).
 */
function rewriteDeclarationImports(dir: string): void {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) {
      rewriteDeclarationImports(path);
    } else if (entry.endsWith('.d.ts')) {
      const text = readFileSync(path, 'utf8');
      const rewritten = text.replace(
        /((?:from|import)\s*\(?\s*['"])(\.{1,2}\/[^'"]*?)\.ts(['"])/g,
        '$1$2.js$3',
      );
      if (rewritten !== text) writeFileSync(path, rewritten);
    }
  }
}
