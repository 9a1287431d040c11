import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createTempDir, type MockModel } from '@keel/testkit';
import { agentPackages, agentPrefix, ensureAgent } from '../cli/ensure-agents.ts';

export const opencodeVersion = agentPackages.opencode.spec.split('@').at(-1)!;

/**
 * Where the real opencode is installed for these tests: the pinned agent's folder of the shared cache,
 * installed once by `ensureAgent` (a scratch install renamed into place), so test files that need it at the
 * same time never install into one npm prefix together.
 */
export const opencodeDir = agentPrefix('opencode');

/** Installs opencode-ai from npm unless it is already there; throws with npm's output when it fails. */
export async function installOpencode(): Promise<{ binary: string; installMs: number }> {
  const started = Date.now();
  await ensureAgent('opencode');
  return { binary: join(opencodeDir, 'node_modules', '.bin', 'opencode'), installMs: Date.now() - started };
}

/**
 * A HOME of its own with XDG dirs and an `opencode.json` pointing at the mock model. Titles (opencode asks
 * for one alongside the first turn, with the same last message) go to a second mock as `small_model`, so
 * the turn's own script cannot be consumed by the title request, whatever order they arrive in.
 */
export async function opencodeHome(model: MockModel, titles: MockModel, apiKey: string) {
  const home = await createTempDir();
  const env = {
    HOME: home.path,
    XDG_CONFIG_HOME: join(home.path, '.config'),
    XDG_DATA_HOME: join(home.path, '.local', 'share'),
    XDG_CACHE_HOME: join(home.path, '.cache'),
    XDG_STATE_HOME: join(home.path, '.local', 'state'),
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_MODELS_FETCH: '1',
  };
  const provider = (baseURL: string, name: string) => ({
    npm: '@ai-sdk/openai-compatible',
    name,
    options: { baseURL, apiKey },
    models: { 'mock-model': { name: 'Mock' } },
  });
  await mkdir(join(env.XDG_CONFIG_HOME, 'opencode'), { recursive: true });
  await writeFile(
    join(env.XDG_CONFIG_HOME, 'opencode', 'opencode.json'),
    JSON.stringify({
      $schema: 'https://opencode.ai/config.json',
      provider: { mock: provider(model.url, 'Mock'), titles: provider(titles.url, 'Titles') },
      model: 'mock/mock-model',
      small_model: 'titles/mock-model',
      autoupdate: false,
      share: 'disabled',
    }),
  );
  return { home, env };
}
