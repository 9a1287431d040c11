import type { ApiError } from './errors.ts';

/** Words some field names are written with. */
const spelled: Record<string, string> = {
  url: 'URL',
  api: 'API',
  id: 'ID',
  mcp: 'MCP',
  prd: 'PRD',
  mr: 'MR',
  github: 'GitHub',
  env: 'environment',
  args: 'arguments',
};

/**
 * A field path as a reader names it: `name` → "Name", `repositories.1.path` → "Repository 2 path",
 * `mcp_servers.0.command` → "MCP server 1 command", `prd_links.1` → "PRD link 2".
 */
export function fieldLabel(path: string): string {
  const parts: string[] = [];
  const segments = path.replace(/^(body|query|params)\./, '').split('.');
  segments.forEach((segment, index) => {
    if (/^\d+$/.test(segment) && index > 0) {
      // An index names one item of the list before it: "repositories" 1 → "repository 2".
      const list = parts.pop() ?? '';
      parts.push(`${list.replace(/ies$/, 'y').replace(/s$/, '')} ${Number(segment) + 1}`);
    } else {
      parts.push(
        segment
          .split('_')
          .map((word) => spelled[word] ?? word)
          .join(' '),
      );
    }
  });
  const label = parts.join(' ');
  return label.charAt(0).toUpperCase() + label.slice(1);
}

/** A validation message (the service's schema library's) in words that follow a field's label. */
export function issueWords(message: string): string {
  const text = message.trim();
  let match = /expected string to have >=(\d+) characters?/.exec(text);
  if (match) return match[1] === '1' ? 'is required' : `needs at least ${match[1]} characters`;
  match = /expected string to have <=(\d+) characters?/.exec(text);
  if (match) return `is too long (at most ${Number(match[1]).toLocaleString()} characters)`;
  match = /expected array to have >=(\d+) items?/.exec(text);
  if (match) return match[1] === '1' ? 'needs at least one entry' : `needs at least ${match[1]} entries`;
  match = /expected array to have <=(\d+) items?/.exec(text);
  if (match) return `has too many entries (at most ${match[1]})`;
  match = /expected number to be >=?(\d+)/.exec(text);
  if (match) return `must be at least ${match[1]}`;
  match = /expected number to be <=?(\d+)/.exec(text);
  if (match) return `must be at most ${match[1]}`;
  if (/received undefined/.test(text) || /^Required$/i.test(text)) return 'is required';
  if (/^Invalid URL/i.test(text)) return 'is not a valid URL (e.g. https://example.com/doc)';
  match = /^Invalid option: expected one of (.+)$/.exec(text);
  if (match) return `must be one of ${match[1]?.replaceAll('|', ', ')}`;
  if (/^Unrecognized key/.test(text)) return text.replace(/^Unrecognized keys?:?/, 'has unknown field(s):');
  const lower = text.charAt(0).toLowerCase() + text.slice(1);
  return /^(must|is|are|has|needs|should|cannot|can't)\b/.test(lower) ? lower : `: ${lower}`;
}

/** The issues of a validation error: `[{field, message}]`, or none. */
export function issuesOf(error: ApiError): { field: string; message: string }[] {
  const list = error.details.issues;
  if (!Array.isArray(list)) return [];
  return list.filter(
    (issue): issue is { field: string; message: string } =>
      Boolean(issue) &&
      typeof (issue as { field?: unknown }).field === 'string' &&
      typeof (issue as { message?: unknown }).message === 'string',
  );
}

/**
 * A message without internal ids (`prj_…`, `task_…`, `wses_…`) and API paths, which say nothing to a
 * reader of the page ("Retry with POST /api/…" becomes "Retry it on this page.").
 */
export function scrub(message: string): string {
  return (
    message
      .replace(/\s*\((?:POST|GET|PUT|DELETE) \/api\/[^)]*\)/g, '')
      // "…: PUT /api/settings {"model": "<model name>"}." (an API client's fix): the page has a field for it.
      .replace(/:\s*(?:POST|GET|PUT|DELETE) \/api\/\S+(?:\s+\{.*?\})?(?=[.;]|$)/g, '')
      .replace(/Retry with (?:POST|GET|PUT|DELETE) \/api\/\S+?\.?(?=\s|$)/g, 'Retry it on this page.')
      .replace(/\s*(?:with|by) (?:POST|GET|PUT|DELETE) \/api\/\S+?(?=[\s.;:,]|$)/g, '')
      .replace(/\s*'?\b[a-z]{2,6}_[0-9a-z]{16,}\b'?/g, '')
      .replace(/\s+([,.:;])/g, '$1')
      .trim()
  );
}

/**
 * What an API error says to the person at the page, in words: each validation issue as "<Field> <what is
 * wrong>.", a busy session or task as what runs and what to do, anything else as the service's message
 * without internal ids or API paths. The code stays beside it (small) for a report.
 */
export function errorWords(error: ApiError): string {
  const running = typeof error.details.running === 'string' ? error.details.running : null;
  switch (error.code) {
    case 'INVALID_PARAMS': {
      const issues = issuesOf(error);
      if (issues.length === 0) return scrub(error.message);
      const seen = new Set<string>();
      const sentences: string[] = [];
      for (const issue of issues) {
        const words = issueWords(issue.message);
        const sentence = `${fieldLabel(issue.field)}${words.startsWith(':') ? '' : ' '}${words}`;
        if (!seen.has(sentence)) sentences.push(sentence.endsWith('.') ? sentence : `${sentence}.`);
        seen.add(sentence);
      }
      return sentences.join(' ');
    }
    case 'SESSION_BUSY':
      return running
        ? `Still busy with ${running}. Wait for it to finish, or stop it, then try again.`
        : scrub(error.message);
    case 'TASK_BUSY':
      return running
        ? `The task is busy with ${running}. Wait for it to end, then try again.`
        : scrub(error.message);
    case 'SESSION_NOT_RUNNING':
      return 'Nothing was running any more: the work had already ended.';
    case 'SERVER_ERROR':
      return 'Something went wrong inside the workbench service (its log has the cause). Try again; if it keeps failing, report it.';
    default:
      return scrub(error.message) || error.message;
  }
}
