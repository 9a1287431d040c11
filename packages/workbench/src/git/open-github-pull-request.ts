import { WorkbenchError } from '../errors.ts';

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
  fetch?: typeof fetch;
}

/** Opens a GitHub pull request; a refusal is MERGE_REQUEST_FAILED (502) carrying GitHub's own message. */
export async function openGitHubPullRequest(
  options: GitHubPullRequestOptions,
): Promise<{ url: string; number: number }> {
  const endpoint = `${options.apiUrl.replace(/\/+$/, '')}/repos/${encodeURIComponent(options.owner)}/${encodeURIComponent(options.repo)}/pulls`;
  const doFetch = options.fetch ?? fetch;
  let response: Response;
  try {
    response = await doFetch(endpoint, {
      method: 'POST',
      headers: {
        Accept: 'application/vnd.github+json',
        Authorization: `Bearer ${options.token}`,
        'Content-Type': 'application/json',
        'User-Agent': 'keel-workbench',
        'X-GitHub-Api-Version': '2022-11-28',
      },
      body: JSON.stringify({
        title: options.title,
        head: options.head,
        base: options.base,
        body: options.body,
      }),
      signal: AbortSignal.timeout(60_000),
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new WorkbenchError(
      'MERGE_REQUEST_FAILED',
      `could not reach the GitHub API at ${endpoint}: ${reason}`,
    );
  }
  const payload: unknown = await response.json().catch(() => null);
  if (!response.ok) throw refusal(response.status, payload, options);
  const { html_url: url, number } = (payload ?? {}) as { html_url?: unknown; number?: unknown };
  if (typeof url !== 'string' || typeof number !== 'number') {
    throw new WorkbenchError('MERGE_REQUEST_FAILED', 'GitHub answered without a pull request URL and number');
  }
  return { url, number };
}

/** GitHub errors read `{message, errors: [{message?, code, field}]}`; both parts say what to fix. */
function refusal(status: number, payload: unknown, options: GitHubPullRequestOptions): WorkbenchError {
  const body = (payload ?? {}) as { message?: unknown; errors?: unknown };
  const reasons = Array.isArray(body.errors)
    ? body.errors.map((item: { message?: unknown; code?: unknown; field?: unknown }) =>
        String(item.message ?? [item.field, item.code].filter(Boolean).join(' ')),
      )
    : [];
  const github = [typeof body.message === 'string' ? body.message : `HTTP ${status}`, ...reasons].join(': ');
  const message = `GitHub refused the pull request ${options.head} → ${options.base} on ${options.owner}/${options.repo} (${status}): ${github}`;
  // GitHub does not echo tokens, but a proxy in front of it might.
  const redact = (text: string): string => (options.token ? text.replaceAll(options.token, '***') : text);
  return new WorkbenchError('MERGE_REQUEST_FAILED', redact(message), {
    status,
    github_message: redact(github),
  });
}
