/** What the window does with a navigation: load it, hand it to the user's browser, or refuse it. */
export type NavigationVerdict = 'load' | 'browser' | 'refuse';

/**
 * The window shows the service's own origin and nothing else: a page of it loads in the window; a link
 * anywhere else over http(s) (a merge request, a PRD, a preview), or one the page opens in a new window,
 * goes to the user's browser, where the web belongs; anything else (`file:`, `data:`, `blob:`, custom
 * schemes) is refused. `about:blank` is WebKit's own empty page before the first load.
 */
export function navigationVerdict(
  serviceOrigin: string,
  target: string,
  newWindow: boolean,
): NavigationVerdict {
  if (target === 'about:blank') return newWindow ? 'refuse' : 'load';
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return 'refuse';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'refuse';
  if (!newWindow && url.origin === serviceOrigin) return 'load';
  return 'browser';
}
