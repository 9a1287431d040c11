/** The web-relevant parts of a git remote URL. */
export interface RemoteLocation {
  /** Host name, lower case, without credentials. */
  host: string;
  /** Port to keep in a web link (only from http(s) URLs; an ssh port is not the web server's). */
  webPort: string | null;
  /** Repository path without leading/trailing slashes and without `.git`, e.g. `group/sub/repo`. */
  path: string;
}

/** Parses https://, http://, ssh://, git:// and scp-like `user@host:path` remotes; null for local paths. */
export function parseRemoteUrl(url: string): RemoteLocation | null {
  const trimmed = url.trim();
  const scpLike = /^(?:[^@/\s]+@)?([^:/\s]+):(?!\/\/)(.+)$/.exec(trimmed);
  if (scpLike && !trimmed.includes('://')) {
    return scpLike[1] && scpLike[2] ? location(scpLike[1], null, scpLike[2]) : null;
  }
  let parsed: URL;
  try {
    parsed = new URL(trimmed);
  } catch {
    return null;
  }
  const web = parsed.protocol === 'https:' || parsed.protocol === 'http:';
  if (!web && parsed.protocol !== 'ssh:' && parsed.protocol !== 'git:' && parsed.protocol !== 'git+ssh:')
    return null;
  if (!parsed.hostname) return null;
  return location(
    parsed.hostname,
    web && parsed.port ? parsed.port : null,
    decodeURIComponent(parsed.pathname),
  );
}

function location(host: string, webPort: string | null, rawPath: string): RemoteLocation | null {
  const path = rawPath
    .replace(/^\/+|\/+$/g, '')
    .replace(/\.git$/, '')
    .replace(/^~[^/]*\//, '');
  return path ? { host: host.toLowerCase(), webPort, path } : null;
}
