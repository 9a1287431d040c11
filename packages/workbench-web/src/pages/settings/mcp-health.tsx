import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import type { ApiError } from '../../api/errors.ts';
import type { McpHealth, McpServer, Settings } from '../../api/types.ts';
import { ErrorNote } from '../../components/status.tsx';
import { type McpDraft, mcpFromDraft } from './drafts.ts';

const shownTools = 30;

/** Whether the row is the server as saved (the check starts the saved one, not the form's values). */
function sameAsSaved(draft: McpDraft, saved: McpServer): boolean {
  const server = mcpFromDraft(draft);
  return (
    server.command === saved.command &&
    server.enabled === saved.enabled &&
    JSON.stringify(server.args) === JSON.stringify(saved.args) &&
    JSON.stringify(Object.entries(server.env).sort()) === JSON.stringify(Object.entries(saved.env).sort())
  );
}

/**
 * "Check" beside a saved MCP server: the service starts it as the runners would, lists its tools and stops
 * it; the answer shows here, "Started · 3 tools: a, b, c" or why it failed in words. A row not saved yet
 * (no saved server of its name) has no button: there is nothing to start.
 */
export function McpHealthCheck({ draft }: { draft: McpDraft }) {
  // The settings page's own query: its cached answer is what is saved.
  const settings = useQuery<Settings, ApiError>({ queryKey: ['settings'], queryFn: api.settings.get });
  const name = draft.name.trim();
  const saved = settings.data?.mcp_servers.find((server) => server.name === name);
  const check = useMutation<McpHealth, ApiError, string>({ mutationFn: api.settings.mcpHealth });
  if (!saved) {
    return name ? <p className="hint mcp-health">Save the settings to check this server.</p> : null;
  }
  const result = check.data && check.variables === name && !check.isPending ? check.data : null;
  return (
    <div className="mcp-health">
      <button
        type="button"
        className="button-secondary"
        disabled={check.isPending}
        onClick={() => check.mutate(name)}
        aria-label={`Check MCP server ${name}`}
      >
        {check.isPending ? 'Checking…' : 'Check'}
      </button>
      {sameAsSaved(draft, saved) ? null : (
        <span className="hint warn">
          {' '}
          Edited: the check starts the saved server; save to check the changes.
        </span>
      )}
      {check.variables === name && !check.isPending ? <ErrorNote error={check.error} /> : null}
      {result?.ok ? (
        <p className="mcp-health-result ok" role="status" data-testid="mcp-health">
          <strong>Started</strong> · {result.tool_count} {result.tool_count === 1 ? 'tool' : 'tools'}
          {result.tools.length > 0 ? ': ' : '.'}
          {result.tools.slice(0, shownTools).join(', ')}
          {result.tools.length > shownTools ? ` and ${result.tools.length - shownTools} more` : ''}
        </p>
      ) : null}
      {result && !result.ok ? (
        <div className="error-note" role="alert" data-testid="mcp-health">
          {/* The service masks the server's secret env values in it, as in the settings. */}
          <span className="error-words pre">
            {result.error?.message ?? `The MCP server '${name}' did not start.`}
          </span>
        </div>
      ) : null}
    </div>
  );
}
