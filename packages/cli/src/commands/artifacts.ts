import type { Command } from 'commander';
import { printJson, type WorkdirFlags, withRuntime, workdirOption } from '../cli-runtime.ts';
import type { CliIo } from '../io.ts';
import { formatArtifact } from '../render/records.ts';
import { terminalSafe } from '../render/terminal-safe.ts';
import { describe } from './descriptions.ts';

/** `keel artifacts list|show`: what runs produced. */
export function registerArtifacts(program: Command, io: CliIo): void {
  const artifacts = program.command('artifacts').description(describe('artifacts'));

  workdirOption(artifacts.command('list'))
    .description('List a run’s artifacts, oldest first')
    .requiredOption('--run-id <id>', 'the run')
    .option('--json', 'print JSON')
    .action((flags: WorkdirFlags & { runId: string; json?: boolean }) =>
      withRuntime(io, flags, async (runtime) => {
        const list = await runtime.runs.artifacts(flags.runId);
        if (flags.json) printJson(io, { artifacts: list });
        else io.out.write(list.length ? `${list.map(formatArtifact).join('\n')}\n` : 'No artifacts.\n');
      }),
    );

  workdirOption(artifacts.command('show'))
    .description('Write an artifact’s payload to stdout')
    .argument('<artifact_id>')
    .action((artifactId: string, flags: WorkdirFlags) =>
      withRuntime(io, flags, async (runtime) => {
        const payload = await runtime.artifacts.read(artifactId);
        // Byte for byte into a pipe or a file; on a terminal its control sequences are shown, not run.
        const shown = (io.out as { isTTY?: boolean }).isTTY
          ? terminalSafe(Buffer.from(payload).toString('utf8'))
          : payload;
        await new Promise<void>((resolve, reject) =>
          io.out.write(shown, (error) => (error ? reject(error) : resolve())),
        );
      }),
    );
}
