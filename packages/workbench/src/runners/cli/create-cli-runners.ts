import type { Runner } from '../contract.ts';
import type { AgentAdapter } from './agent.ts';
import { claudeCodeAdapter } from './claude-code.ts';
import { CliRunner, type CliRunnerOptions } from './cli-runner.ts';
import { codexAdapter } from './codex.ts';
import { cursorAdapter } from './cursor.ts';
import { geminiAdapter } from './gemini.ts';
import { opencodeAdapter } from './opencode.ts';

/** Every command-line agent adapter, in the order the settings list them. */
export const cliAdapters: readonly AgentAdapter[] = [
  codexAdapter,
  opencodeAdapter,
  claudeCodeAdapter,
  geminiAdapter,
  cursorAdapter,
];

/**
 * One runner per command-line agent, for `createRunnerRegistry({ runners })`.
 *
 * @example
 * const registry = createRunnerRegistry({ runners: createCliRunners({ homesDir: join(home, 'runner-homes') }) });
 */
export function createCliRunners(options: CliRunnerOptions = {}): Runner[] {
  return cliAdapters.map((adapter) => new CliRunner(adapter, options));
}
