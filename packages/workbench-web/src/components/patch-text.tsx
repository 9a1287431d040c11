/**
 * A unified diff of one text (no file list, no repository): each line coloured by what it is, added,
 * removed, a hunk header or context. For small texts such as plan.md; code diffs use the DiffViewer.
 */
export function PatchText({ patch, label }: { patch: string; label: string }) {
  if (!patch.trim()) return <div className="empty">No differences.</div>;
  const lines = patch.replace(/\n$/, '').split('\n');
  return (
    <section aria-label={label}>
      <pre className="patch patch-text">
        {lines.map((line, index) => {
          const kind =
            line.startsWith('+++') || line.startsWith('---')
              ? 'head'
              : line.startsWith('@@')
                ? 'hunk'
                : line.startsWith('+')
                  ? 'add'
                  : line.startsWith('-')
                    ? 'del'
                    : 'same';
          return (
            // Lines repeat; their place in the patch is their identity.
            // biome-ignore lint/suspicious/noArrayIndexKey: a patch line has no id but its position
            <span key={index} className={`patch-line patch-${kind}`}>
              {line}
              {'\n'}
            </span>
          );
        })}
      </pre>
    </section>
  );
}
