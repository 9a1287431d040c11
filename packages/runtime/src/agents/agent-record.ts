import type { Run, SubAgentType } from '../store/index.ts';

/** A sub-agent's states (spec section 3); completed, failed, killed and timeout are final. */
export type SubAgentStatus = 'pending' | 'running' | 'completed' | 'failed' | 'killed' | 'timeout';

export const subAgentStatuses: readonly SubAgentStatus[] = [
  'pending',
  'running',
  'completed',
  'failed',
  'killed',
  'timeout',
];

export const finishedAgentStatuses: readonly SubAgentStatus[] = ['completed', 'failed', 'killed', 'timeout'];

/**
 * The sub-agent record (spec section 2: agent_id, status, output, error, created_at, completed_at), read
 * from its latest run; then what links it to the runs: its type and task, the run doing the work and the
 * run that spawned it, and its timeout in seconds.
 */
export interface SubAgent {
  agent_id: string;
  status: SubAgentStatus;
  /** The answer once completed; an empty string once it ended otherwise; absent until it ends. */
  output?: string;
  error: string | null;
  /** When it was first spawned (ISO 8601 with a UTC offset, `+00:00`). */
  created_at: string;
  /** When its latest run ended; null until then. */
  completed_at: string | null;
  type: SubAgentType;
  task: string;
  /** Its latest run: `keel runs show <run_id>`, `GET /runtime/runs/{run_id}`. */
  run_id: string;
  parent_run_id: string | null;
  timeout: number;
}

/**
 * A sub-agent's status from its latest run: queued is pending; running, waiting (for a human, or for a
 * sub-agent of its own) and paused are running; succeeded is completed; an end with TIMEOUT is timeout;
 * any other failure is failed; cancelled is killed.
 */
export function subAgentStatusOf(run: Run): SubAgentStatus {
  switch (run.status) {
    case 'queued':
      return 'pending';
    case 'running':
    case 'waiting':
    case 'paused':
      return 'running';
    case 'succeeded':
      return 'completed';
    case 'failed':
      return run.error?.code === 'TIMEOUT' ? 'timeout' : 'failed';
    case 'cancelled':
      return run.error?.code === 'TIMEOUT' ? 'timeout' : 'killed';
  }
}

/** The sub-agent record of a sub-agent run (the latest of its runs). */
export function toSubAgent(run: Run): SubAgent {
  const agent = run.agent!;
  const status = subAgentStatusOf(run);
  const finished = finishedAgentStatuses.includes(status);
  return {
    agent_id: agent.agent_id,
    status,
    ...(finished ? { output: status === 'completed' ? outputOf(run) : '' } : {}),
    error: errorOf(run, status),
    created_at: withUtcOffset(agent.spawned_at),
    completed_at: finished && run.ended_at ? withUtcOffset(run.ended_at) : null,
    type: agent.type,
    task: agent.task,
    run_id: run.id,
    parent_run_id: run.parent_run_id,
    timeout: agent.timeout_seconds,
  };
}

/** `2026-11-23T10:00:00.000Z` → `2026-11-23T10:00:00.000+00:00`: the spec asks for a UTC offset. */
export function withUtcOffset(iso: string): string {
  return iso.endsWith('Z') ? `${iso.slice(0, -1)}+00:00` : iso;
}

function outputOf(run: Run): string {
  const output = (run.result as { output?: unknown } | null)?.output;
  return typeof output === 'string' ? output : '';
}

function errorOf(run: Run, status: SubAgentStatus): string | null {
  if (status === 'killed') return 'The sub-agent was killed.';
  if (status === 'failed' || status === 'timeout') return run.error?.message ?? `The sub-agent ${status}.`;
  return null;
}
