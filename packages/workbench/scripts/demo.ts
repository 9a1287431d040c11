// The offline workbench demo: the scripted model server, two temporary git repositories (each with a bare
// repository as its origin), and the real workbench configured to use that model, with a demo project
// whose knowledge is generated at start. Open the printed URL and take a task through the five stages;
// the scripted model answers every stage. Data lives in a temporary WORKBENCH_HOME unless one is set.
//
//   node packages/workbench/scripts/demo.ts [--port 8000]
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ScriptedReply, startMockModel } from '@keel/testkit';
import { createWorkbench } from '../src/index.ts';

const modelName = 'demo-model (scripted)';
const portFlag = process.argv.indexOf('--port');
const port = portFlag === -1 ? 8000 : Number(process.argv[portFlag + 1]);

/** Each reply a few times over, so a stage can be asked again (a refinement, a retry). */
function repeated(times: number, ...replies: ScriptedReply[]): ScriptedReply[] {
  return Array.from({ length: times }, () => replies).flat();
}

const todos = [
  {
    title: 'Greeting in the frontend',
    description: 'Create frontend/src/greeting.js exporting greeting().',
    expected_output: 'src/greeting.js',
  },
  {
    title: 'Greeting in the backend',
    description: 'Make the backend answer "hello, world".',
    expected_output: 'server.js answers hello, world',
  },
];

const script: ScriptedReply[] = [
  ...repeated(
    4,
    {
      when: { lastMessageIncludes: 'Describe the STRUCTURE' },
      text: '# Structure\n\n`src/` holds the code; `npm test` runs the tests.\n\n## Conventions\n\n- ES modules, two-space indentation.\n- One exported function per file.',
    },
    {
      when: { lastMessageIncludes: 'Describe the BUSINESS FLOW' },
      text: '# Business flow\n\nA visitor opens the page; the frontend asks the backend for a greeting and shows it.',
    },
    {
      when: { lastMessageIncludes: 'Describe the MODULES' },
      text: '# Modules\n\n- `server.js` / `src/app.js`: the entry point.\n\n## Conventions\n\n- New modules go in `src/` with a test beside them.',
    },
    {
      when: { lastMessageIncludes: 'Write a short INDEX' },
      text: '# Index\n\nA tiny greeting app.\n\n- `src/` or `server.js`: the code\n- `package.json`: scripts',
    },
  ),
  ...repeated(3, {
    when: { lastMessageIncludes: 'Write the technical plan' },
    text: '# Plan\n\n## Goal\n\nGreet the visitor from both apps.\n\n## Changes\n\n- frontend: add `src/greeting.js`.\n- backend: answer "hello, world".\n\n## Verify\n\nRun `npm test` in both.',
  }),
  ...repeated(5, {
    when: { lastMessageIncludes: 'Answer with the complete revised plan' },
    text: '# Plan (revised)\n\n## Goal\n\nGreet the visitor from both apps, with tests.\n\n## Changes\n\n- frontend: add `src/greeting.js` and its test.\n- backend: answer "hello, world".',
  }),
  ...repeated(5, {
    when: { lastMessageIncludes: 'list of todos' },
    text: `\`\`\`json\n${JSON.stringify(todos, null, 2)}\n\`\`\``,
  }),
  ...repeated(5, {
    when: { lastMessageIncludes: 'Adjust the todo list' },
    text: `\`\`\`json\n${JSON.stringify(todos, null, 2)}\n\`\`\``,
  }),
  ...repeated(
    3,
    {
      when: { lastMessageIncludes: 'Do todo 1 of 2' },
      toolCalls: [
        {
          name: 'write_file',
          arguments: {
            path: 'frontend/src/greeting.js',
            content: "export function greeting() {\n  return 'hello';\n}\n",
          },
        },
      ],
    },
    {
      when: { lastMessageIncludes: 'Do todo 2 of 2' },
      toolCalls: [
        {
          name: 'edit_file',
          arguments: { path: 'backend/server.js', old_text: "'hello'", new_text: "'hello, world'" },
        },
      ],
    },
  ),
  ...repeated(6, { when: { lastRole: 'tool' }, text: 'Done: the change is in place.' }),
  ...repeated(3, {
    when: { lastMessageIncludes: 'Write the commit message' },
    text: 'feat: greet the visitor from both apps\n\nThe frontend gains greeting(); the backend answers "hello, world".',
  }),
  ...repeated(5, {
    when: { lastMessageIncludes: 'Adjust the commit message' },
    text: 'feat: say hello everywhere\n\nThe frontend gains greeting(); the backend answers "hello, world".',
  }),
  // Anything else (a chat message): a plain answer, many times over.
  ...repeated(50, {
    text: 'This is the scripted demo model: it knows the five stages of this demo and little else.',
  }),
];

function git(dir: string, ...args: string[]): void {
  execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
}

/** A repository with `files`, committed, whose origin is a bare repository beside it. */
function demoRepository(root: string, name: string, files: Record<string, string>): string {
  const dir = join(root, name);
  const bare = join(root, `${name}.git`);
  git(root, 'init', '--bare', '-b', 'main', bare);
  mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-b', 'main');
  git(dir, 'config', 'user.name', 'Demo');
  git(dir, 'config', 'user.email', 'demo@keel.invalid');
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  git(dir, 'add', '-A');
  git(dir, '-c', 'commit.gpgsign=false', 'commit', '-m', 'initial');
  git(dir, 'remote', 'add', 'origin', bare);
  git(dir, 'push', '-q', 'origin', 'main');
  return dir;
}

const root = mkdtempSync(join(tmpdir(), 'keel-workbench-demo-'));
const home = process.env.WORKBENCH_HOME || join(root, 'home');
// Whatever was started is stopped and the temporary folder removed, on Ctrl-C and on a failed start alike.
const cleanups: (() => Promise<void>)[] = [];
try {
  const model = await startMockModel({ script, models: [modelName] });
  cleanups.unshift(() => model.close());
  const frontend = demoRepository(root, 'frontend', {
    'package.json': '{ "name": "frontend", "type": "module", "scripts": { "test": "node --test" } }\n',
    'src/app.js': "console.log('frontend');\n",
  });
  const backend = demoRepository(root, 'backend', {
    'package.json': '{ "name": "backend", "type": "module", "scripts": { "test": "node --test" } }\n',
    'server.js': "export const answer = 'hello';\n",
  });
  const workbench = await createWorkbench({
    env: {
      ...process.env,
      WORKBENCH_HOME: home,
      RUNTIME_HOME: process.env.RUNTIME_HOME || join(root, 'runtime'),
    },
  });
  cleanups.unshift(() => workbench.close());
  const url = await workbench.listen(port);
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const parsed = await response.json();
    if (!response.ok) throw new Error(`${method} ${path}: ${JSON.stringify(parsed)}`);
    return parsed as { id: string };
  };
  await call('PUT', '/api/settings', { model: modelName, base_url: model.url, api_key: 'demo-key' });
  const project = await call('POST', '/api/projects', {
    name: 'Greeter (demo)',
    description: 'A frontend and a backend that greet visitors.',
    repositories: [
      { path: frontend, type: 'frontend' },
      { path: backend, type: 'backend' },
    ],
  });
  // Knowledge generation starts by itself when a project is created, and so does a task's initialisation.

  process.stdout.write(
    [
      '',
      `Keel workbench demo on ${url}  (API docs: ${url}/docs)`,
      `  model:   ${modelName} at ${model.url}`,
      `  project: ${project.id} (knowledge is generating), repositories in ${root}`,
      `  data:    ${home}`,
      '',
      'Try: create a task in the project; once it is initialised: confirm-init → lock-plan → start-coding →',
      'execute each todo → submit-mr. Ctrl-C stops the demo and removes its temporary files.',
      '',
    ].join('\n'),
  );

  await new Promise<void>((done) => {
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
} catch (error) {
  process.stderr.write(
    `The workbench demo could not start: ${error instanceof Error ? error.message : error}\n`,
  );
  process.exitCode = 1;
} finally {
  for (const cleanup of cleanups) await cleanup().catch(() => undefined);
  rmSync(root, { recursive: true, force: true });
}
