import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { trustFolder } from '@keel/runtime/internal';
import { createTempGitRepo, type ScriptedReply, startMockModel } from '@keel/testkit';

/**
 * A scripted model, a temp git repo (with an optional project config) and a private RUNTIME_HOME: the
 * environment every spawned `keel` of one test shares.
 */
export async function scenario(
  script: ScriptedReply[],
  options: {
    files?: Record<string, string>;
    config?: Record<string, unknown>;
    /** Trust the repo's config as written (`keel trust`), so the project config's security keys apply. */
    trusted?: boolean;
    chunkSize?: number;
  } = {},
) {
  const model = await startMockModel({
    script,
    ...(options.chunkSize ? { chunkSize: options.chunkSize } : {}),
  });
  const repo = await createTempGitRepo({ files: options.files ?? {} });
  const home = await mkdtemp(join(tmpdir(), 'keel-cli-home-'));
  if (options.config) {
    await mkdir(join(repo.path, '.runtime'), { recursive: true });
    await writeFile(join(repo.path, '.runtime', 'config.json'), JSON.stringify(options.config));
  }
  if (options.trusted) await trustFolder(home, repo.path);
  return {
    model,
    repo,
    home,
    env: { RUNTIME_HOME: home, RUNTIME_MODEL: 'mock-model', RUNTIME_MODEL_BASE_URL: model.url },
    async [Symbol.asyncDispose]() {
      await model.close();
      await repo.remove();
      await rm(home, { recursive: true, force: true });
    },
  };
}
