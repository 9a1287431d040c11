// Issue #36, item 3: a repository whose manifests are symbolic links to the user's secrets
// (`requirements.txt -> ~/.ssh/id_ed25519`), with a folder that is a link (`docs -> ~/.ssh`) and a folder
// the working tree turned into one after git recorded a file beneath it (`pkg/requirements.txt`, then
// `pkg -> ~/.pip`). Creating a project over it through the API and generating its knowledge with the
// scripted model puts no byte of the secrets in a model request, a knowledge file, a store row or an API
// answer; the links are named as links.
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { createTempGitRepo, type ScriptedReply } from '@keel/testkit';
import { describe, expect, test } from 'vitest';
import { type Body, eventually, knowledgeScript, startWorkbench, tempDir } from '../harness.ts';

const marker = 'KEELFAKEKEY7f3a9';

/** A user's home with a private key, a JSON token file and a pip file, each holding the marker. */
function secretHome(): { home: string; key: string; tokens: string; pip: string } {
  const home = tempDir('links-home');
  mkdirSync(join(home, '.ssh'));
  mkdirSync(join(home, '.pip'));
  const key = join(home, '.ssh', 'id_ed25519');
  // Lines each manifest parser would take: a requirement name, a go module, a make target.
  writeFileSync(
    key,
    `-----BEGIN OPENSSH PRIVATE KEY-----\n${marker}b3BlbnNzaC1rZXktdjEAAAAABG5vbmU\nmodule ${marker}-module\ntest: ${marker}\n-----END OPENSSH PRIVATE KEY-----\n`,
    { mode: 0o600 },
  );
  const tokens = join(home, '.ssh', 'tokens.json');
  writeFileSync(
    tokens,
    JSON.stringify({
      name: `${marker}-json`,
      scripts: { test: `echo ${marker}` },
      dependencies: { [`${marker}-dep`]: '1' },
    }),
  );
  const pip = join(home, '.pip', 'requirements.txt');
  writeFileSync(pip, `${marker}-pip==1.0\n`);
  return { home, key, tokens, pip };
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(path);
    return entry.isFile() ? [path] : [];
  });
}

describe("a repository whose files are links to the user's secrets", () => {
  test('creating a project and its knowledge reads none of them; the scan names them as links', {
    timeout: 60_000,
  }, async () => {
    const secret = secretHome();
    await using repo = await createTempGitRepo({
      files: { 'src/index.js': 'export {};\n', 'pkg/requirements.txt': 'flask\n' },
    });
    for (const name of ['requirements.txt', 'Makefile', 'go.mod', 'README.md']) {
      symlinkSync(secret.key, join(repo.path, name));
    }
    symlinkSync(secret.tokens, join(repo.path, 'package.json'));
    symlinkSync(join(secret.home, '.ssh'), join(repo.path, 'docs'));
    await repo.git('add', '-A');
    await repo.git('commit', '-q', '-m', 'links');
    // git still lists pkg/requirements.txt once pkg is a link (its lstat follows the folder link).
    rmSync(join(repo.path, 'pkg'), { recursive: true });
    symlinkSync(join(secret.home, '.pip'), join(repo.path, 'pkg'));

    // A hijacked model tries to read through the links too: the runtime's read boundary answers that.
    const script: ScriptedReply[] = [
      {
        when: { lastMessageIncludes: 'Describe the STRUCTURE' },
        toolCalls: [{ name: 'read_file', arguments: { path: 'docs/id_ed25519' } }],
      },
      { when: { lastRole: 'tool' }, text: '# Structure\n\n## Conventions\n\n- Links are named.' },
      ...knowledgeScript(1).filter((reply) => !JSON.stringify(reply.when).includes('STRUCTURE')),
    ];
    await using wb = await startWorkbench(script);
    const { api } = wb;
    const created = await api('POST', '/api/projects', {
      name: 'Linked',
      repositories: [{ path: repo.path, type: 'backend' }],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const project = created.body;
    // No check from a linked package.json, Makefile or go.mod.
    expect(project.repositories[0].checks).toEqual([]);
    const ready = await eventually(async () => {
      const body = (await api('GET', `/api/projects/${project.id}`)).body;
      return ['READY', 'FAILED'].includes(body.status) && body;
    }, 'knowledge generated');
    expect(ready.status, ready.error).toBe('READY');

    // The scan the model was given names each link, reads none.
    const prompts = wb.model.chatRequests.map((request) => JSON.stringify(request.messages));
    const structure = prompts.find((prompt) => prompt.includes('Describe the STRUCTURE')) ?? '';
    for (const link of [
      'README.md',
      'requirements.txt',
      'package.json',
      'Makefile',
      'go.mod',
      'docs',
      'pkg',
    ]) {
      expect(structure).toContain(`\`${link}\` -> (link, not read)`);
    }
    expect(structure).toContain('src/index.js');

    // Nowhere: not in a model request, an API answer, a knowledge file or the stores' files.
    expect(prompts.join('\n')).not.toContain(marker);
    expect(prompts.join('\n')).toContain("'docs/id_ed25519' is outside the working directory");
    const knowledge = await api('GET', `/api/projects/${project.id}/knowledge`);
    const answers = [
      created.body,
      ready,
      (await api('GET', '/api/projects')).body,
      knowledge.body,
      ...(await Promise.all(
        knowledge.body.layers.map(
          async (layer: Body) => (await api('GET', `/api/sessions/${layer.session_id}/logs`)).body,
        ),
      )),
    ];
    expect(JSON.stringify(answers)).not.toContain(marker);
    const stored = [...filesUnder(wb.home), ...filesUnder(wb.runtimeHome)];
    expect(stored.some((path) => path.endsWith('.md'))).toBe(true);
    const leaking = stored.filter((path) => readFileSync(path).includes(marker));
    expect(leaking).toEqual([]);
  });
});
