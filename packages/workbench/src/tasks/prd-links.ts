import { STATUS_CODES } from 'node:http';
import { HostPolicy, type HostPolicyWording, httpGet, parseWebUrl } from '@keel/runtime/internal';
import type { StoredSettings } from '../settings/index.ts';

/** At most this many characters of each PRD document reach the prompt. */
export const maxPrdChars = 50_000;
const maxBytes = 5 * 1024 * 1024;
const timeoutMs = 15_000;

/** Refusals name the workbench's setting and how to change it, not the runtime's `web`. */
const wording: HostPolicyWording = {
  setting: 'prd_links',
  fetcher: 'the workbench',
  where: 'with PUT /api/settings',
};

export interface PrdDocument {
  url: string;
  ok: boolean;
  /** The document as text (HTML reduced to its text), or why it could not be read. */
  text: string;
}

/**
 * Fetches the task's PRD links with the runtime's bounded GET and host policy (settings `prd_links`): every
 * redirect checked again, loopback and private addresses refused unless allowed on purpose, bounded in time
 * and size; text, Markdown and JSON as they are, HTML as its text. A link that fails or is refused is
 * reported in the prompt, not a failed plan.
 */
export async function fetchPrdDocuments(
  links: string[],
  settings: StoredSettings['prd_links'] | undefined,
  signal: AbortSignal = new AbortController().signal,
): Promise<PrdDocument[]> {
  let policy: HostPolicy;
  try {
    policy = prdLinkPolicy(settings);
  } catch (error) {
    return links.map((url) => ({ url, ok: false, text: (error as Error).message }));
  }
  return Promise.all(links.map((url) => fetchOne(url, policy, signal)));
}

/** Public hosts, plus the private ones `allowed_hosts` names (`*` first: the list adds, it does not limit). */
function prdLinkPolicy(settings: StoredSettings['prd_links'] | undefined): HostPolicy {
  const named = settings?.allowed_hosts ?? [];
  return new HostPolicy(
    {
      allow_private_network: settings?.allow_private_network ?? false,
      ...(named.length > 0 ? { allowed_hosts: ['*', ...named] } : {}),
    },
    wording,
  );
}

async function fetchOne(url: string, policy: HostPolicy, signal: AbortSignal): Promise<PrdDocument> {
  try {
    const response = await httpGet(parseWebUrl(url), {
      timeoutMs,
      maxBytes,
      // Stopping the plan (or deleting its task) ends a fetch; otherwise the time limit does.
      signal,
      policy,
      limitSettings: {},
      headers: {
        accept: 'text/markdown, text/plain, text/html;q=0.9, application/json;q=0.8, */*;q=0.1',
        'user-agent': 'Keel-workbench',
      },
    });
    if (response.status < 200 || response.status > 299) {
      const reason = STATUS_CODES[response.status];
      return { url, ok: false, text: `HTTP ${response.status}${reason ? ` ${reason}` : ''}` };
    }
    const type = (response.contentType ?? 'text/plain').toLowerCase();
    if (!/^(text\/|application\/(json|xml|xhtml))/.test(type)) {
      return { url, ok: false, text: `not a text document (${type})` };
    }
    const body = response.body.toString('utf8');
    const text = type.includes('html') ? htmlToText(body) : body;
    return {
      url,
      ok: true,
      text: text.length > maxPrdChars ? `${text.slice(0, maxPrdChars)}\n[… cut]` : text,
    };
  } catch (error) {
    return { url, ok: false, text: (error as Error).message };
  }
}

/** A plain reading of HTML: scripts and styles dropped, block ends as line breaks, entities decoded. */
export function htmlToText(html: string): string {
  return html
    .replace(/<(script|style|noscript)[\s\S]*?<\/\1>/gi, '')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|h[1-6]|li|tr|section|article|pre)>/gi, '\n')
    .replace(/<li[^>]*>/gi, '- ')
    .replace(/<[^>]+>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
