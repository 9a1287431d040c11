import type { Run } from '@keel/protocol/runtime';

/**
 * How a run is named in lists and headers: a sub-agent's run by its type and task ("↳ research: Find …"),
 * since its prompt is the runtime's wording of that task; any other run by its prompt. An older server
 * sends no `agent` at all.
 */
export function runLabel(run: Pick<Run, 'prompt'> & { agent?: Run['agent'] }): string {
  return run.agent ? `↳ ${run.agent.type}: ${run.agent.task}` : run.prompt;
}

/** The words for a sub-agent's end (`agent_finished`'s status, or its run's). */
export function agentOutcome(status: string): string {
  switch (status) {
    case 'completed':
    case 'succeeded':
      return 'finished';
    case 'timeout':
      return 'timed out';
    default:
      return status;
  }
}
