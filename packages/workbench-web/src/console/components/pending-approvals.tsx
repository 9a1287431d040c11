import type { Approval } from '@keel/protocol/runtime';
import { useQuery } from '@tanstack/react-query';
import type { ApiError } from '../../api/errors.ts';
import { Empty, ErrorNote, Loading } from '../../components/status.tsx';
import { keelWeb } from '../api/keel-web.ts';
import { ApprovalCard } from './approval-card.tsx';

/** Every request waiting for a person, from any run in the server's store, decided here. */
export function PendingApprovals({ onOpenRun }: { onOpenRun: (runId: string) => void }) {
  const pending = useQuery<Approval[], ApiError>({
    queryKey: ['approvals', 'pending'],
    queryFn: () => keelWeb.approvals.list({ status: 'pending' }),
    // Nothing pushes new approvals of other runs: look again every few seconds.
    refetchInterval: 3000,
  });
  const approvals = pending.data ?? [];
  return (
    <section className="side-section" aria-label="Waiting for you">
      <h2>Waiting for you {approvals.length ? <span className="count">{approvals.length}</span> : null}</h2>
      {pending.isPending ? <Loading what="approvals" /> : null}
      {pending.error?.status === 401 ? null : <ErrorNote error={pending.error} />}
      {pending.data && approvals.length === 0 ? <Empty>Nothing waits for you.</Empty> : null}
      <ul className="approval-list">
        {approvals.map((approval) => (
          <li key={approval.id}>
            <ApprovalCard approval={approval} compact onOpenRun={onOpenRun} />
          </li>
        ))}
      </ul>
    </section>
  );
}
