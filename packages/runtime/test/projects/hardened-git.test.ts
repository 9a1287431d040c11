// The runtime's git (task branches of keel-web's projects) runs hardened: a repository's own config
// cannot make it run a program (fsmonitor, hooks, filters), nor point it at another folder.
import { existsSync } from 'node:fs';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createTempDir, createTempGitRepo } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { checkoutBranch, repositoryRoot } from '../../src/projects/task-branch.ts';

describe("the runtime's git in a hostile repository", () => {
  test('no fsmonitor, hook or filter the repository names runs when a task branch is made', async () => {
    await using outside = await createTempDir();
    const repo = await createTempGitRepo({ files: { 'README.md': 'hello\n', 'data.txt': 'x\n' } });
    try {
      const marker = (name: string) => join(outside.path, name);
      const script = join(outside.path, 'evil.sh');
      await writeFile(script, `#!/bin/sh\ntouch "${outside.path}/ran-$1"\n`);
      await chmod(script, 0o755);
      await mkdir(join(repo.path, 'hooks'));
      await writeFile(join(repo.path, 'hooks', 'post-checkout'), `#!/bin/sh\n"${script}" hook\n`);
      await chmod(join(repo.path, 'hooks', 'post-checkout'), 0o755);
      await repo.git('config', 'core.fsmonitor', `${script} fsmonitor`);
      await repo.git('config', 'core.hooksPath', join(repo.path, 'hooks'));
      await repo.git('config', 'filter.evil.smudge', `${script} smudge`);
      await repo.git('config', 'filter.evil.clean', `${script} clean`);
      await repo.git('config', 'core.worktree', outside.path);
      await writeFile(join(repo.path, '.gitattributes'), '*.txt filter=evil\n');

      expect(await repositoryRoot(repo.path)).toBe(repo.path);
      const first = await checkoutBranch(repo.path, 'task/one');
      expect(first).toEqual({ created: true, previous: 'main' });
      await checkoutBranch(repo.path, 'main');
      for (const what of ['fsmonitor', 'hook', 'smudge', 'clean']) {
        expect(existsSync(marker(`ran-${what}`)), what).toBe(false);
      }
      // The checkout stayed in the repository, not in the folder core.worktree names.
      expect(existsSync(join(outside.path, 'README.md'))).toBe(false);
    } finally {
      await repo.remove();
    }
  });
});
