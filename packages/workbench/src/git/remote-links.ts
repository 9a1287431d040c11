import { parseRemoteUrl } from './parse-remote-url.ts';

export type RemoteProvider = 'gitlab' | 'github' | 'other';

/** github.com (and its subdomains) → github, a host containing "gitlab" → gitlab, anything else → other. */
export function detectProvider(url: string): RemoteProvider {
  const host = parseRemoteUrl(url)?.host;
  if (!host) return 'other';
  if (host === 'github.com' || host.endsWith('.github.com')) return 'github';
  return host.includes('gitlab') ? 'gitlab' : 'other';
}

/** owner/repo from a GitHub-style remote URL (https or ssh), or null when the path is not exactly two parts. */
export function parseRepoSlug(url: string): { owner: string; repo: string } | null {
  const parts = parseRemoteUrl(url)?.path.split('/') ?? [];
  const [owner, repo] = parts;
  return parts.length === 2 && owner && repo ? { owner, repo } : null;
}

/**
 * A browser link comparing `branch` against `base` on GitHub or GitLab (https or ssh remotes), e.g.
 * https://github.com/o/r/compare/main...feature or https://gitlab.example.com/g/r/-/compare/main...feature;
 * null for other hosts and local paths.
 */
export function compareLink(remoteUrl: string, base: string, branch: string): string | null {
  const provider = detectProvider(remoteUrl);
  const location = parseRemoteUrl(remoteUrl);
  if (provider === 'other' || !location) return null;
  const origin = `https://${location.host}${location.webPort ? `:${location.webPort}` : ''}`;
  const compare = provider === 'gitlab' ? '-/compare' : 'compare';
  return `${origin}/${location.path}/${compare}/${encodeRef(base)}...${encodeRef(branch)}`;
}

/** Branch names may hold `#`, `%` or `?`; slashes stay readable. */
function encodeRef(ref: string): string {
  return ref.split('/').map(encodeURIComponent).join('/');
}
