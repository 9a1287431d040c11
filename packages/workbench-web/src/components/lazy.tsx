import { lazy, Suspense, useState } from 'react';
import type { ToolEdit } from '../api/tool-edit.ts';
import type { RepositoryDiff } from '../api/types.ts';
import type { DiffNote } from './diff-notes.ts';
import { Loading } from './status.tsx';

// The Markdown renderer and the diff viewer are the heaviest parts; they load when first shown.
const MarkdownImpl = lazy(() => import('./markdown.tsx'));
type DiffModule = typeof import('./diff-view.tsx');
// The diff viewer's module once loaded: rendered directly then, without suspending. A lazy component
// suspends on its first render even when its code is already here, and React holds back what a Suspense
// boundary reveals for about 300 ms after its fallback showed: the preload would win nothing.
let diffModule: DiffModule | undefined;
const loadDiffView = () =>
  import('./diff-view.tsx').then((module) => {
    diffModule = module;
    return module;
  });
const DiffImpl = lazy(loadDiffView);
const EditDiffImpl = lazy(() => import('./diff-view.tsx').then((module) => ({ default: module.EditDiff })));

export function Markdown({ children }: { children: string }) {
  return (
    <Suspense fallback={<pre className="markdown-fallback">{children}</pre>}>
      <MarkdownImpl>{children}</MarkdownImpl>
    </Suspense>
  );
}

/** Starts loading the diff viewer's code while the diff itself is still on its way. */
export function preloadDiffViewer(): void {
  void loadDiffView();
}

/**
 * Each repository's changes; `notes` (review findings) under the lines they are about; with `taskId`, a file
 * past the patch's 1 MiB cut reads its own patch when opened.
 */
export function DiffViewer({
  diffs,
  notes,
  taskId,
}: {
  diffs: RepositoryDiff[];
  notes?: DiffNote[];
  taskId?: string;
}) {
  const props = { diffs, ...(notes ? { notes } : {}), ...(taskId ? { taskId } : {}) };
  // Chosen once per viewer: switching between the two would remount it and lose what the user opened.
  const [loaded] = useState(() => diffModule);
  if (loaded) return <loaded.default {...props} />;
  return (
    <Suspense fallback={<Loading what="diff viewer" />}>
      <DiffImpl {...props} />
    </Suspense>
  );
}

/** A tool call's file edit as a diff (edit_file, write_file, patch). */
export function EditDiffViewer({ edit }: { edit: ToolEdit }) {
  return (
    <Suspense fallback={<Loading what="diff" />}>
      <EditDiffImpl edit={edit} />
    </Suspense>
  );
}
