import type { WorkbenchError } from '../errors.ts';
import { forgeError, forgeRequest, redirectNote } from '../merge-requests/index.ts';

export interface GitHubPullRequestOptions {
  /** API root, e.g. https://api.github.com or https://github.example.com/api/v3. */
  apiUrl: string;
  /** A token allowed to open pull requests; sent only as the Authorization header, never reported. */
  token: string;
  owner: string;
  repo: string;
  /** The pushed branch (or `owner:branch` from a fork). */
  head: string;
  /** The branch to merge into. */
  base: string;
  title: string;
  body: string;
}

/**
 * Opens a GitHub pull request through the one forge client (bounded; the token never follows a redirect to
 * another origin); a refusal is MERGE_REQUEST_FAILED (502) carrying GitHub's own message.
 */
export async function openGitHubPullRequest(
  options: GitHubPullRequestOptions,
): Promise<{ url: string; number: number }> {
  const endpoint = `${options.apiUrl.replace(/\/+$/, '')}/repos/${encodeURIComponent(options.owner)}/${encodeURIComponent(options.repo)}/pulls`;
  const call = {
    provider: 'github' as const,
    token: options.token,
    subject: `pull request ${options.head} → ${options.base} on ${options.owner}/${options.repo}`,
    code: 'MERGE_REQUEST_FAILED' as const,
    method: 'POST' as const,
    body: { title: options.title, head: options.head, base: options.base, body: options.body },
    timeoutMs: 60_000,
  };
  const response = await forgeRequest(endpoint, call);
  if (!response.ok) {
    throw refusal(response.status, response.payload, options, redirectNote(response, endpoint, 'github'));
  }
  const { html_url: url, number } = (response.payload ?? {}) as { html_url?: unknown; number?: unknown };
  if (typeof url !== 'string' || typeof number !== 'number') {
    throw forgeError(call, response.status, 'GitHub answered without a pull request URL and number');
  }
  return { url, number };
}

/** GitHub errors read `{message, errors: [{message?, code, field}]}`; both parts say what to fix. */
function refusal(
  status: number,
  payload: unknown,
  options: GitHubPullRequestOptions,
  moved: string,
): WorkbenchError {
  const body = (payload ?? {}) as { message?: unknown; errors?: unknown };
  const reasons = Array.isArray(body.errors)
    ? body.errors.map((item: { message?: unknown; code?: unknown; field?: unknown }) =>
        String(item.message ?? [item.field, item.code].filter(Boolean).join(' ')),
      )
    : [];
  const github = [typeof body.message === 'string' ? body.message : `HTTP ${status}`, ...reasons].join(': ');
  const message = `GitHub refused the pull request ${options.head} → ${options.base} on ${options.owner}/${options.repo} (${status}): ${github}${moved}`;
  const call = { provider: 'github' as const, token: options.token, code: 'MERGE_REQUEST_FAILED' as const };
  return forgeError(call, status, message, { github_message: github });
}
