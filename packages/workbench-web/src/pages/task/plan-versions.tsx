import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api/client.ts';
import type { ApiError } from '../../api/errors.ts';
import type { PlanDiff, PlanVersion, Task } from '../../api/types.ts';
import { PatchText } from '../../components/patch-text.tsx';
import { ErrorNote, Loading } from '../../components/status.tsx';

/**
 * Every version of plan.md (each AI turn's answer and each save by hand), newest first, and the diff of
 * one version with the one before it.
 */
export function PlanVersions({ task }: { task: Task }) {
  const versions = useQuery<PlanVersion[], ApiError>({
    // A new version changes the task (its plan and updated_at): the list is read again then.
    queryKey: ['plan-versions', task.id, task.updated_at],
    queryFn: () => api.tasks.planVersions(task.id),
    enabled: task.plan !== null,
    placeholderData: keepPreviousData,
  });
  const [shown, setShown] = useState<number | null>(null);
  const diff = useQuery<PlanDiff, ApiError>({
    queryKey: ['plan-diff', task.id, shown],
    queryFn: () => api.tasks.planDiff(task.id, { from: (shown ?? 2) - 1, to: shown ?? 2 }),
    enabled: shown !== null && shown > 1,
  });
  if (task.plan === null) return null;
  const list = [...(versions.data ?? [])].reverse();
  return (
    <section className="plan-versions" aria-labelledby={`plan-versions-${task.id}`}>
      <h3 id={`plan-versions-${task.id}`}>Versions</h3>
      {versions.isPending ? <Loading what="plan versions" /> : null}
      <ErrorNote error={versions.error} />
      <ol className="version-list" aria-label="Plan versions">
        {list.map((version) => (
          <li
            key={version.version}
            className={shown === version.version ? 'plan-version selected' : 'plan-version'}
          >
            <strong>v{version.version}</strong>{' '}
            <span className="hint">
              {version.source === 'user' ? 'edited by hand' : 'written by the AI'} ·{' '}
              {new Date(version.created_at).toLocaleString()}
            </span>{' '}
            {version.version > 1 ? (
              <button
                type="button"
                className="button-link"
                aria-expanded={shown === version.version}
                aria-label={`Diff of v${version.version} with the previous version`}
                onClick={() => setShown(shown === version.version ? null : version.version)}
              >
                {shown === version.version ? 'Hide diff' : 'Diff with previous'}
              </button>
            ) : null}
          </li>
        ))}
      </ol>
      {shown !== null ? (
        <div className="plan-diff">
          <h4>
            v{shown - 1} → v{shown}{' '}
            {diff.data ? (
              <span className="hint">
                <span className="add">+{diff.data.additions}</span>{' '}
                <span className="del">−{diff.data.deletions}</span>
              </span>
            ) : null}
          </h4>
          {diff.isPending ? <Loading what="diff" /> : null}
          <ErrorNote error={diff.error} />
          {diff.data ? (
            <PatchText patch={diff.data.patch} label={`plan.md, v${shown - 1} to v${shown}`} />
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
