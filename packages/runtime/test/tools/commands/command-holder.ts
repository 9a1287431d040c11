// A process running the runtime's real exec_command, for commands-die-with-worker.test.ts: started with
// `node --conditions=@keel/source`, it runs one command (argv[2]: workdir, sandbox on or off, command line)
// and is then killed from outside while the command still runs.
import { createSandbox } from '../../../src/sandbox/index.ts';
import { createCodingTools, createCommandPolicy, createPathGuard } from '../../../src/tools/index.ts';

const { workdir, sandboxed, command } = JSON.parse(process.argv[2] ?? '{}') as {
  workdir: string;
  sandboxed: boolean;
  command: string;
};
const guard = await createPathGuard({ workdir });
const ctx = {
  workdir: guard.workdir,
  guard,
  signal: new AbortController().signal,
  commands: createCommandPolicy({ allowedCommands: ['*'] }),
  sandbox: sandboxed ? createSandbox({ enabled: true, backend: 'bubblewrap' }) : undefined,
};
process.stdout.write('started\n');
await createCodingTools().execute('exec_command', { command, timeout_ms: 600_000 }, ctx);
