import { lazy, Suspense } from 'react';
import type { ToolEdit } from '../api/tool-edit.ts';
import type { RepositoryDiff } from '../api/types.ts';
import type { DiffNote } from './diff-notes.ts';
import { Loading } from './status.tsx';

// The Markdown renderer and the diff viewer are the heaviest parts; they load when first shown.
const MarkdownImpl = lazy(() => import('./markdown.tsx'));
const DiffImpl = lazy(() => import('./diff-view.tsx'));
const EditDiffImpl = lazy(() => import('./diff-view.tsx').then((module) => ({ default: module.EditDiff })));

export function Markdown({ children }: { children: string }) {
  return (
    <Suspense fallback={<pre className="markdown-fallback">{children}</pre>}>
      <MarkdownImpl>{children}</MarkdownImpl>
    </Suspense>
  );
}

/** Each repository's changes; `notes` (review findings) under the lines they are about. */
export function DiffViewer({ diffs, notes }: { diffs: RepositoryDiff[]; notes?: DiffNote[] }) {
  return (
    <Suspense fallback={<Loading what="diff viewer" />}>
      <DiffImpl diffs={diffs} {...(notes ? { notes } : {})} />
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
