/**
 * When a key of a *project* `.runtime/config.json` applies (docs/decisions/2026-11-26-trusted-folders.md).
 * A cloned repository's file must not send the user's keys elsewhere, run commands, loosen the sandbox or
 * the approval policy, open the network or reach outside the project unless the user trusted the folder.
 *
 * - `always`: harmless, applies in any folder.
 * - `trusted`: security-relevant, applies only in a trusted folder.
 * - `inside-project`: a list of paths; entries inside the project always apply, the others only trusted.
 * - `never`: only the global file may set it.
 *
 * A key this table does not name (a newer key, a typo, anything a later version adds) counts as
 * security-relevant: nothing applies untrusted unless it is known to be harmless. The README's
 * "Trusted folders" table is this one.
 */
export type TrustApplies = 'always' | 'trusted' | 'inside-project' | 'never';

/** Why a key needs trust, in one word a surface can group by. */
export type TrustKind =
  | 'harmless'
  | 'endpoint'
  | 'command'
  | 'sandbox'
  | 'policy'
  | 'network'
  | 'storage'
  | 'path'
  | 'trust-list'
  | 'unknown';

export interface TrustKey {
  /** Dotted key path; it covers everything under it. */
  key: string;
  applies: TrustApplies;
  kind: TrustKind;
  /** What the key could do in a hostile repository's file (or why it is harmless). */
  why: string;
}

export const projectTrustKeys: readonly TrustKey[] = [
  // Security-relevant: named commands, URLs, keys' destinations, policy, storage.
  {
    key: 'model_base_url',
    applies: 'trusted',
    kind: 'endpoint',
    why: 'the model key is sent to this address',
  },
  {
    key: 'mcp',
    applies: 'trusted',
    kind: 'command',
    why: 'MCP servers run commands (unsandboxed) or reach URLs with headers',
  },
  {
    key: 'lsp.servers',
    applies: 'trusted',
    kind: 'command',
    why: 'language-server commands run outside the sandbox',
  },
  {
    key: 'security',
    applies: 'trusted',
    kind: 'policy',
    why: 'allowed commands, read boundary, allowed roots, approvals',
  },
  {
    key: 'sandbox',
    applies: 'trusted',
    kind: 'sandbox',
    why: 'turns the sandbox off or picks its backend, image, remote and token',
  },
  {
    key: 'web.allowed_hosts',
    applies: 'trusted',
    kind: 'network',
    why: 'lets webfetch reach private and local hosts',
  },
  {
    key: 'web.allow_private_network',
    applies: 'trusted',
    kind: 'network',
    why: 'opens the local network to webfetch',
  },
  {
    key: 'web.search',
    applies: 'trusted',
    kind: 'endpoint',
    why: 'the search key is sent to this provider and address',
  },
  {
    key: 'store',
    applies: 'trusted',
    kind: 'storage',
    why: 'every run (prompts, outputs) is written to this path or database URL',
  },
  {
    key: 'artifacts',
    applies: 'trusted',
    kind: 'storage',
    why: 'artifact payloads go to this directory or S3 endpoint',
  },
  { key: 'rate_limit', applies: 'trusted', kind: 'network', why: "turns off keel-web's rate limit" },
  {
    key: 'skills.custom_dirs',
    applies: 'inside-project',
    kind: 'path',
    why: 'a skill directory outside the project',
  },
  {
    key: 'trusted_folders',
    applies: 'never',
    kind: 'trust-list',
    why: 'only the global config.json can trust folders',
  },
  {
    key: 'trusted_project_configs',
    applies: 'never',
    kind: 'trust-list',
    why: 'only the global config.json can approve project files',
  },
  // Harmless: model choice, thinking, context, limits, skills the project ships.
  { key: '$schema', applies: 'always', kind: 'harmless', why: 'editor hint' },
  { key: 'model', applies: 'always', kind: 'harmless', why: 'model name' },
  { key: 'enable_thinking', applies: 'always', kind: 'harmless', why: 'thinking mode' },
  {
    key: 'model_profile',
    applies: 'always',
    kind: 'harmless',
    why: "how the model server's answers are read",
  },
  { key: 'thinking_budget', applies: 'always', kind: 'harmless', why: 'thinking tokens' },
  { key: 'skills.enabled', applies: 'always', kind: 'harmless', why: 'which skills are offered' },
  { key: 'skills.disabled', applies: 'always', kind: 'harmless', why: 'which skills are offered' },
  { key: 'lsp.idle_timeout_ms', applies: 'always', kind: 'harmless', why: 'time limit' },
  { key: 'lsp.start_timeout_ms', applies: 'always', kind: 'harmless', why: 'time limit' },
  { key: 'lsp.request_timeout_ms', applies: 'always', kind: 'harmless', why: 'time limit' },
  { key: 'lsp.diagnostics_timeout_ms', applies: 'always', kind: 'harmless', why: 'time limit' },
  {
    key: 'web.blocked_hosts',
    applies: 'always',
    kind: 'harmless',
    why: 'only narrows what webfetch reaches',
  },
  { key: 'web.timeout_ms', applies: 'always', kind: 'harmless', why: 'time limit' },
  { key: 'web.max_response_bytes', applies: 'always', kind: 'harmless', why: 'size limit' },
  {
    key: 'circuit_breaker',
    applies: 'always',
    kind: 'harmless',
    why: 'token, cost and step limits of a run',
  },
  { key: 'pricing', applies: 'always', kind: 'harmless', why: 'model prices for the cost estimate' },
  { key: 'context', applies: 'always', kind: 'harmless', why: 'context pruning and compaction' },
  {
    key: 'interaction_timeout',
    applies: 'always',
    kind: 'harmless',
    why: 'an expired approval is a refusal',
  },
  { key: 'sub_agents', applies: 'always', kind: 'harmless', why: 'limits and specialist prompts' },
  { key: 'runs', applies: 'always', kind: 'harmless', why: 'lease and time budget' },
];

const byKey = new Map(projectTrustKeys.map((entry) => [entry.key, entry]));

/** The rule of `key`, or undefined when the table names neither it nor anything under it. */
export function trustRuleOf(key: string): TrustKey | undefined {
  return byKey.get(key);
}

/** Whether the table names keys under `key` (then an object there is walked into). */
export function hasTrustRulesUnder(key: string): boolean {
  const prefix = `${key}.`;
  return projectTrustKeys.some((entry) => entry.key.startsWith(prefix));
}
