// A stored secret is bound to the address it was saved with: the model key to `base_url`, the GitHub token to
// `github_api_url`, the GitLab token to `gitlab_api_url`. Changing the address alone must not send the secret somewhere new (security issue #21),
// so a PUT that changes it without the secret clears the secret and says so.
import { sameEndpoint } from '@keel/runtime/internal';
import type { RunnerConfig } from '../runners/index.ts';
import type { SettingsUpdate, StoredSettings } from './schema.ts';
import type { SecretName, Secrets } from './secrets.ts';

/** Why a cleared secret is missing (`cleared_secrets` of a PUT, `reasons` of the check). */
export const clearedReasons: Record<SecretName, string> = {
  api_key:
    'api_key was removed because base_url changed without it: a key is only sent to the base_url it was saved with. Send api_key again (with base_url in the same PUT).',
  github_token:
    'github_token was removed because github_api_url changed without it: a token is only sent to the github_api_url it was saved with. Send github_token again (with github_api_url in the same PUT).',
  gitlab_token:
    'gitlab_token was removed because gitlab_api_url changed without it: a token is only sent to the gitlab_api_url it was saved with. Send gitlab_token again (with gitlab_api_url in the same PUT).',
};

/** Runner-config environment variables that point an agent at another model endpoint. */
const endpointVariable = /(?:BASE_URL|API_BASE)$/i;

type BoundSecret = 'github_token' | 'gitlab_token';
/** The tokens of a code host, each bound to its API address setting. */
const hostTokens: {
  name: BoundSecret;
  url: 'github_api_url' | 'gitlab_api_url';
  boundTo: `${BoundSecret}_api_url`;
}[] = [
  { name: 'github_token', url: 'github_api_url', boundTo: 'github_token_api_url' },
  { name: 'gitlab_token', url: 'gitlab_api_url', boundTo: 'gitlab_token_api_url' },
];

/** A secrets.json from before binding: each secret is bound to the URL in force when first read. */
export function withLegacyBindings(
  secrets: Secrets,
  settings: StoredSettings,
): { secrets: Secrets; changed: boolean } {
  const next = { ...secrets };
  let changed = false;
  if (next.api_key !== undefined && next.api_key_base_url === undefined) {
    next.api_key_base_url = settings.base_url;
    changed = true;
  }
  for (const token of hostTokens) {
    if (next[token.name] !== undefined && next[token.boundTo] === undefined) {
      next[token.boundTo] = settings[token.url];
      changed = true;
    }
  }
  return { secrets: next, changed };
}

/**
 * The secrets after a PUT whose settings are now `next`: a secret sent is saved bound to the URL now in force
 * (null removes it); one not sent whose URL changed is removed and named in `cleared`.
 */
export function patchSecrets(
  before: Secrets,
  patch: SettingsUpdate,
  next: StoredSettings,
): { secrets: Secrets; cleared: SecretName[] } {
  const secrets: Secrets = { ...before };
  const pending = new Set(before.cleared ?? []);
  const cleared: SecretName[] = [];

  if (patch.api_key !== undefined) pending.delete('api_key');
  if (patch.api_key) {
    secrets.api_key = patch.api_key;
    secrets.api_key_base_url = next.base_url;
  } else if (
    patch.api_key === null ||
    (secrets.api_key !== undefined && !sameEndpoint(secrets.api_key_base_url, next.base_url))
  ) {
    if (patch.api_key === undefined) cleared.push('api_key');
    delete secrets.api_key;
    delete secrets.api_key_base_url;
  }

  for (const { name, url, boundTo } of hostTokens) {
    const sent = patch[name];
    if (sent !== undefined) pending.delete(name);
    if (sent) {
      secrets[name] = sent;
      secrets[boundTo] = next[url];
    } else if (sent === null || (secrets[name] !== undefined && !sameEndpoint(secrets[boundTo], next[url]))) {
      if (sent === undefined) cleared.push(name);
      delete secrets[name];
      delete secrets[boundTo];
    }
  }

  for (const name of cleared) pending.add(name);
  delete secrets.cleared;
  if (pending.size > 0) secrets.cleared = [...pending];
  return { secrets, cleared };
}

/** The secrets that may be used now: each only while its URL is still the one it was saved with. */
export function usableSecrets(
  secrets: Secrets,
  settings: StoredSettings,
): { api_key?: string; github_token?: string; gitlab_token?: string } {
  const usable: { api_key?: string; github_token?: string; gitlab_token?: string } = {};
  if (secrets.api_key && sameEndpoint(secrets.api_key_base_url, settings.base_url)) {
    usable.api_key = secrets.api_key;
  }
  for (const { name, url, boundTo } of hostTokens) {
    const value = secrets[name];
    if (value && sameEndpoint(secrets[boundTo], settings[url])) usable[name] = value;
  }
  return usable;
}

/**
 * Whether a runner config points its agent at another endpoint than `baseUrl` through its environment
 * (`ANTHROPIC_BASE_URL`, `RUNTIME_MODEL_BASE_URL`, `OPENAI_API_BASE`…): such a config must bring its own key.
 */
export function redirectsModel(config: RunnerConfig | undefined, baseUrl: string | null): boolean {
  return Object.entries(config?.env ?? {}).some(
    ([name, value]) => endpointVariable.test(name) && !sameEndpoint(value, baseUrl),
  );
}
