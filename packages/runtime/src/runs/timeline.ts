import type { Approval, Artifact, Checkpoint, Run, RunStatus, RunStore, Step } from '../store/index.ts';

export type TimelineEntry =
  | ({ type: 'step'; at: string; checkpoint_id: string | null } & Step)
  | ({ type: 'checkpoint'; at: string } & Omit<Checkpoint, 'state'>)
  | ({ type: 'approval'; at: string } & Approval)
  | ({ type: 'artifact'; at: string; href: string } & Artifact)
  /** A sub-agent the run spawned: its run (`id`), at its creation. */
  | {
      type: 'sub_agent';
      at: string;
      id: string;
      agent_id: string;
      agent_type: string;
      task: string;
      status: RunStatus;
      ended_at: string | null;
      href: string;
    };

export interface Timeline {
  run: Run;
  entries: TimelineEntry[];
}

/**
 * A run's steps, checkpoints, approvals, artifacts and sub-agents in time order, each step linked to its
 * checkpoint.
 */
export async function buildTimeline(store: RunStore, runId: string): Promise<Timeline> {
  const run = await store.getRun(runId);
  const [steps, checkpoints, approvals, artifacts, children] = await Promise.all([
    store.listSteps(runId),
    store.listCheckpoints(runId),
    store.listApprovals({ run_id: runId, limit: 1000 }),
    store.listArtifacts(runId),
    store.listRuns({ parent_run_id: runId, limit: 1000 }),
  ]);
  const checkpointOf = new Map(checkpoints.filter((c) => c.step_id).map((c) => [c.step_id!, c.id]));
  const entries: TimelineEntry[] = [
    ...steps.map((step) => ({
      type: 'step' as const,
      at: step.started_at,
      checkpoint_id: checkpointOf.get(step.id) ?? null,
      ...step,
    })),
    ...checkpoints.map(({ state: _state, ...checkpoint }) => ({
      type: 'checkpoint' as const,
      at: checkpoint.created_at,
      ...checkpoint,
    })),
    ...approvals.map((approval) => ({ type: 'approval' as const, at: approval.created_at, ...approval })),
    ...artifacts.map((artifact) => ({
      type: 'artifact' as const,
      at: artifact.created_at,
      href: `/runtime/artifacts/${artifact.id}`,
      ...artifact,
    })),
    ...children
      .filter((child) => child.agent)
      .map((child) => ({
        type: 'sub_agent' as const,
        at: child.created_at,
        id: child.id,
        agent_id: child.agent!.agent_id,
        agent_type: child.agent!.type,
        task: child.agent!.task,
        status: child.status,
        ended_at: child.ended_at,
        href: `/runtime/runs/${child.id}`,
      })),
  ];
  entries.sort((a, b) => (a.at === b.at ? a.id.localeCompare(b.id) : a.at.localeCompare(b.at)));
  return { run, entries };
}
