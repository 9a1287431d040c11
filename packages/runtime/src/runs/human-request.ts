import type { Approval, NewApproval } from '../store/index.ts';
import type { Execution } from './execution.ts';

/**
 * Records a request for a human (an approval node, a tool call's approval, a question), or finds the one a
 * worker that died recorded for the same thing before its checkpoint could keep the id: a run waits on one
 * request, not on one per crash. That one may have been decided while no worker ran the run (a person
 * answers what they were shown): it is taken whether pending or decided, as long as it was made after the
 * run's latest checkpoint. A decided one made before it belongs to an earlier attempt (a node retried after
 * a rejection asks again). `same` tells requests of one node and kind apart (a tool call's id).
 */
export async function requestOnce(
  execution: Execution,
  request: NewApproval,
  same: (approval: Approval) => boolean = () => true,
): Promise<Approval> {
  const { store, run } = execution;
  const checkpoint = await store.latestCheckpoint(run.id);
  const since = checkpoint ? Date.parse(checkpoint.created_at) : Number.NEGATIVE_INFINITY;
  const earlier = (await store.listApprovals({ run_id: run.id, limit: 1000 }))
    .filter(
      (approval) =>
        approval.node_id === request.node_id &&
        approval.kind === request.kind &&
        same(approval) &&
        (approval.status === 'pending' || Date.parse(approval.created_at) > since),
    )
    .sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at))[0];
  return earlier ?? store.createApproval(request);
}
