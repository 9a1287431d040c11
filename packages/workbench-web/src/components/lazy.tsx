import { type ComponentType, lazy, type ReactNode, Suspense, useState } from 'react';
import type { ToolEdit } from '../api/tool-edit.ts';
import type { RepositoryDiff } from '../api/types.ts';
import type { DiffNote } from './diff-notes.ts';
import { Loading } from './status.tsx';

// The Markdown renderer and the diff viewer are the heaviest parts; they load when first shown.
const MarkdownImpl = lazy(() => import('./markdown.tsx'));

/**
 * A component in its own chunk that, once its module is here, renders directly. A lazy component suspends on
 * its first render even when its code is already loaded, and React holds back what a Suspense boundary
 * reveals for about 300 ms after its fallback showed: `preload()` alone would win nothing.
 */
export function preloadable<Props extends object>(
  load: () => Promise<{ default: ComponentType<Props> }>,
  fallback: ReactNode,
): { Component: ComponentType<Props>; preload: () => Promise<unknown> } {
  let loaded: ComponentType<Props> | undefined;
  const preload = () =>
    load().then((module) => {
      loaded = module.default;
      return module;
    });
  const Lazy = lazy(preload) as unknown as ComponentType<Props>;
  // biome-ignore lint/correctness/noComponentHookFactories: made once per chunk when a module loads, never in a render
  function Preloaded(props: Props) {
    // Chosen once per mount: switching between the two would remount it and lose its state.
    const [Loaded] = useState(() => loaded);
    if (Loaded) return <Loaded {...props} />;
    return (
      <Suspense fallback={fallback}>
        <Lazy {...props} />
      </Suspense>
    );
  }
  return { Component: Preloaded, preload };
}

const diffView = preloadable(() => import('./diff-view.tsx'), <Loading what="diff viewer" />);
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
  void diffView.preload();
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
  return <diffView.Component {...props} />;
}

/** A tool call's file edit as a diff (edit_file, write_file, patch). */
export function EditDiffViewer({ edit }: { edit: ToolEdit }) {
  return (
    <Suspense fallback={<Loading what="diff" />}>
      <EditDiffImpl edit={edit} />
    </Suspense>
  );
}
