import { execFile } from 'node:child_process';
import { access, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createTempDir, type MockModel } from '@keel/testkit';
import { agentsCacheDir } from '../cli/ensure-agents.ts';

export const opencodeVersion = '1.18.33';

/**
 * Where the real opencode is installed for these tests: its own folder of the shared agent cache, so
 * another test installing other agents into the cache at the same time cannot clash with it.
 */
export const opencodeDir = join(agentsCacheDir, 'opencode-acp');

/** Installs opencode-ai from npm unless it is already there; throws with npm's output when it fails. */
export async function installOpencode(): Promise<{ binary: string; installMs: number }> {
  const binary = join(opencodeDir, 'node_modules', '.bin', 'opencode');
  const started = Date.now();
  const present = await access(binary).then(
    () => true,
    () => false,
  );
  if (!present) {
    await mkdir(opencodeDir, { recursive: true });
    const args = [
      'install',
      '--prefix',
      opencodeDir,
      '--no-audit',
      '--no-fund',
      `opencode-ai@${opencodeVersion}`,
    ];
    await new Promise<void>((done, fail) => {
      execFile('npm', args, { timeout: 280_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
        if (error) {
          fail(
            new Error(
              `Installing opencode-ai@${opencodeVersion} into ${opencodeDir} failed: ${error.message}\n${stdout}\n${stderr}`,
            ),
          );
        } else done();
      });
    });
    await access(binary).catch(() => {
      throw new Error(`npm installed opencode-ai@${opencodeVersion} but ${binary} is missing.`);
    });
  }
  return { binary, installMs: Date.now() - started };
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
