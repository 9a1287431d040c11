/**
 * Where the transcript view starts: `null` follows the end (new output stays in sight); a number holds
 * the view at that line while the user reads back, however much output arrives below.
 */
export type ScrollTop = number | null;

/** The first line to show, and how many lines are below the view. */
export function visibleWindow(total: number, height: number, top: ScrollTop): { top: number; below: number } {
  const last = Math.max(0, total - height);
  const start = top === null ? last : Math.min(Math.max(0, top), last);
  return { top: start, below: Math.max(0, total - start - height) };
}

/** PgUp / PgDn: a page less two lines, so some context stays; reaching the end follows it again. */
export function scrollBy(top: ScrollTop, direction: 'up' | 'down', total: number, height: number): ScrollTop {
  const page = Math.max(1, height - 2);
  const current = visibleWindow(total, height, top).top;
  const next = direction === 'up' ? current - page : current + page;
  if (next >= total - height) return null;
  return Math.max(0, next);
}
