// The offline demo: starts the scripted model server, makes a small git repository, and runs the real
// `keel run` against both, so a fresh clone shows a full agent run with no model account.
// Nothing is written outside a temporary directory.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTempGitRepo, startMockModel } from '@keel/testkit';

const model = await startMockModel({
  script: [
    {
      reasoning: 'First I should see what is in the project.',
      toolCalls: [{ name: 'list_directory', arguments: { path: '.' } }],
    },
    { toolCalls: [{ name: 'read_file', arguments: { path: 'src/greet.js' } }] },
    {
      text: 'The greeting ignores the name it is given; I will fix that.\n',
      toolCalls: [
        {
          name: 'edit_file',
          arguments: {
            path: 'src/greet.js',
            old_text: "return 'Hello!';",
            // biome-ignore lint/suspicious/noTemplateCurlyInString: the model writes a template literal into the file.
            new_text: 'return `Hello, ${name}!`;',
          },
        },
      ],
    },
    { toolCalls: [{ name: 'grep', arguments: { pattern: 'greet\\(', path: '.' } }] },
    {
      text:
        '`greet(name)` now uses its argument: `greet("Ada")` returns "Hello, Ada!".\n\n' +
        'Next steps:\n- Add a test for greet in src/greet.test.js\n',
    },
  ],
});
// Started first, stopped last: whatever happens below, nothing is left running or on disk.
const cleanups: (() => Promise<unknown>)[] = [() => model.close()];
try {
  const repo = await createTempGitRepo({
    files: {
      'README.md': '# hello\n\nA tiny greeting library.\n',
      'src/greet.js': "export function greet(name) {\n  return 'Hello!';\n}\n",
      'src/main.js': "import { greet } from './greet.js';\nconsole.log(greet('Ada'));\n",
    },
  });
  cleanups.unshift(() => repo.remove());
  const home = await mkdtemp(join(tmpdir(), 'keel-demo-home-'));
  cleanups.unshift(() => rm(home, { recursive: true, force: true }));
  console.log(`Scripted model at ${model.url}; project at ${repo.path}\n`);
  const prompt = 'greet() ignores its name argument. Fix it.';
  console.log(`$ keel run "${prompt}"\n`);
  // Asynchronous on purpose: the scripted model answers from this very process.
  const keel = spawn(
    'keel',
    ['run', prompt, '--workdir', repo.path, '--model', 'mock-model', '--model-base-url', model.url],
    {
      stdio: 'inherit',
      env: { ...process.env, RUNTIME_HOME: home },
    },
  );
  const [code] = await once(keel, 'exit');
  process.exitCode = code ?? 1;
  console.log('\n$ git diff');
  console.log(await repo.git('diff', '--color=never'));
} finally {
  for (const cleanup of cleanups) await cleanup().catch(() => undefined);
}
