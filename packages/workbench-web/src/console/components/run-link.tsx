import type { ReactNode } from 'react';

/**
 * A link to a run that opens it in the console (`?run=<id>`, so a new tab or a copied link works too); a
 * plain click stays in the page.
 */
export function RunLink({
  runId,
  onOpenRun,
  children,
  className = 'run-link',
}: {
  runId: string;
  onOpenRun: (runId: string) => void;
  children?: ReactNode;
  className?: string;
}) {
  return (
    <a
      href={`?run=${encodeURIComponent(runId)}`}
      className={className}
      data-run-link={runId}
      onClick={(event) => {
        if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
        event.preventDefault();
        onOpenRun(runId);
      }}
    >
      {children ?? runId}
    </a>
  );
}
