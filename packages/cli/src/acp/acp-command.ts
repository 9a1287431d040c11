import { Readable, Writable } from 'node:stream';
import { ndJsonStream } from '@agentclientprotocol/sdk';
import type { UnconfinedCommands } from '@keel/runtime';
import { type Command, Option } from 'commander';
import { describe } from '../commands/descriptions.ts';
import type { CliIo } from '../io.ts';
import { terminalSafe } from '../render/terminal-safe.ts';
import { keelAgent } from './keel-agent.ts';

/**
 * `keel acp`: Keel as an Agent Client Protocol agent on stdin/stdout, for editors (Zed's `agent_servers`,
 * JetBrains IDEs) and the workbench. Stdout carries only the protocol; notes go to stderr.
 */
export function registerAcp(program: Command, io: CliIo): void {
  program
    .command('acp')
    .description(describe('acp'))
    .addOption(
      new Option(
        '--unconfined-commands <mode>',
        'with no sandbox (bwrap missing), a command that does more than read: ask the editor, or refuse it (for a client that approves everything)',
      )
        .choices(['ask', 'refuse'])
        .default('ask'),
    )
    .action(async (flags: { unconfinedCommands: UnconfinedCommands }) => {
      io.exitCode = await serveAcp(io, program.version() ?? '0.0.0', flags.unconfinedCommands);
    });
}

async function serveAcp(io: CliIo, version: string, unconfinedCommands: UnconfinedCommands): Promise<number> {
  const keel = keelAgent({
    env: io.env,
    version,
    unconfinedCommands,
    log: (line) => io.err.write(`${terminalSafe(line)}\n`),
  });
  const input = Readable.toWeb((io.in ?? process.stdin) as Readable) as ReadableStream<Uint8Array>;
  const output = Writable.toWeb(io.out as Writable) as WritableStream<Uint8Array>;
  const connection = keel.app.connect(ndJsonStream(output, input));
  const stop = () => connection.close();
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  try {
    await connection.closed;
    return 0;
  } finally {
    process.off('SIGTERM', stop);
    process.off('SIGINT', stop);
    await keel.close();
  }
}
