import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import type { LspLanguage } from './languages.ts';
import type { LspConfig, LspServerConfig } from './lsp-config.ts';

/** How to start one language's server, resolved from the built-in table and config `lsp.servers`. */
export interface LspServerDefinition {
  language: LspLanguage;
  /** What messages call the server: the built-in package's name, or the configured command's. */
  name: string;
  command: string;
  args: string[];
  /** On top of the runtime's environment (without its secrets). */
  env: Record<string, string>;
  initializationOptions: Record<string, unknown>;
  /** Sent with `workspace/didChangeConfiguration` once started, and answered to `workspace/configuration`. */
  settings: Record<string, unknown>;
  /** Set when the built-in server is not installed: why it cannot start, naming the package to install. */
  problem?: string;
}

interface BuiltIn {
  /** The npm package with the server, an optional peer of @keel/runtime. */
  packageName: string;
  bin: string;
  args: string[];
  initializationOptions: () => Record<string, unknown>;
  settings: Record<string, unknown>;
}

const require = createRequire(import.meta.url);

const builtIns: Record<LspLanguage, BuiltIn> = {
  typescript: {
    packageName: 'typescript-language-server',
    bin: 'typescript-language-server',
    args: ['--stdio'],
    // typescript-language-server drives a tsserver.js: the workspace's when it has a usable one, else this
    // fallback (TypeScript 7 ships none, so a TypeScript 5.9 or 6 beside the runtime serves).
    initializationOptions: () => {
      const fallbackPath = resolveFrom(require, 'typescript/lib/tsserver.js');
      // No automatic type acquisition: it runs npm in the background, which a coding agent must not do unasked.
      return {
        hostInfo: 'keel',
        disableAutomaticTypingAcquisition: true,
        ...(fallbackPath ? { tsserver: { fallbackPath } } : {}),
      };
    },
    // eagerClear: every change clears the file's diagnostics and publishes them anew, even when they stay
    // empty, so a wait for the diagnostics of the synced text always ends (docs/decisions/2026-11-23-lsp-tools.md).
    settings: { diagnostics: { eagerClear: true } },
  },
  python: {
    packageName: 'pyright',
    bin: 'pyright-langserver',
    args: ['--stdio'],
    initializationOptions: () => ({}),
    settings: {},
  },
};

/** The server for `language` under config `lsp` (which may replace its command or adjust it). */
export function serverDefinition(language: LspLanguage, config: LspConfig | undefined): LspServerDefinition {
  const builtIn = builtIns[language];
  const entry: LspServerConfig | undefined = config?.servers?.[language];
  const shared = {
    language,
    env: { ...entry?.env },
    initializationOptions: { ...builtIn.initializationOptions(), ...entry?.initialization_options },
    settings: { ...builtIn.settings, ...entry?.settings },
  };
  if (entry?.command !== undefined) {
    return { ...shared, name: basename(entry.command), command: entry.command, args: entry.args ?? [] };
  }
  const script = packageBin(builtIn.packageName, builtIn.bin);
  // The built-in servers are JavaScript, run on this Node: no PATH lookup, no shell.
  const definition = {
    ...shared,
    name: builtIn.packageName,
    command: process.execPath,
    args: script === undefined ? [] : [script, ...(entry?.args ?? builtIn.args)],
  };
  if (script !== undefined) return definition;
  return {
    ...definition,
    problem:
      `The ${language === 'typescript' ? 'TypeScript/JavaScript' : 'Python'} language server is not ` +
      `installed: npm install ${builtIn.packageName} (the @keel/all install includes it), or set ` +
      `lsp.servers.${language}.command in the configuration.`,
  };
}

/** Two definitions with the same key start the same server. */
export function definitionKey(definition: LspServerDefinition): string {
  const { command, args, env, initializationOptions, settings } = definition;
  return JSON.stringify([command, args, env, initializationOptions, settings]);
}

/** The absolute path of a package's bin script, or undefined when the package is not installed. */
function packageBin(packageName: string, bin: string): string | undefined {
  const manifestPath = resolveFrom(require, `${packageName}/package.json`);
  if (manifestPath === undefined) return undefined;
  try {
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
      bin?: string | Record<string, string>;
    };
    const relative = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin?.[bin];
    return relative === undefined ? undefined : join(dirname(manifestPath), relative);
  } catch {
    return undefined;
  }
}

function resolveFrom(from: NodeJS.Require, specifier: string): string | undefined {
  try {
    return from.resolve(specifier);
  } catch {
    return undefined;
  }
}
