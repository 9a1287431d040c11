import { useId } from 'react';
import type { ApiError } from '../../api/errors.ts';
import { ErrorNote, invalidBy } from '../../components/status.tsx';
import { type McpDraft, newKey } from './drafts.ts';
import { McpHealthCheck } from './mcp-health.tsx';

/**
 * The MCP servers fieldset: one row per server; an error of `mcp_servers.{i}.<field>` shows under that field,
 * one about the row as a whole under the row.
 */
export function McpServersFieldset({
  servers,
  onChange,
  error,
}: {
  servers: McpDraft[];
  onChange: (next: McpDraft[]) => void;
  error: ApiError | null;
}) {
  const ids = useId();
  const about = (field: string) =>
    error?.isAbout(field) ? error.narrowed((each) => each === field || each.startsWith(`${field}.`)) : null;
  const fields = ['name', 'command', 'args', 'env', 'enabled'];
  /** The input's props and the note under it, for field `name` of row `index`. */
  const field = (index: number, name: string) => {
    const fieldError = about(`mcp_servers.${index}.${name}`);
    const noteId = `${ids}-${index}-${name}-error`;
    return {
      input: { name: `mcp_servers.${index}.${name}`, ...invalidBy(fieldError, noteId) },
      note: <ErrorNote error={fieldError} id={noteId} />,
    };
  };
  const rowError = (index: number) =>
    about(`mcp_servers.${index}`) && !fields.some((name) => about(`mcp_servers.${index}.${name}`))
      ? error
      : null;
  function update(key: number, change: Partial<McpDraft>) {
    onChange(servers.map((server) => (server.key === key ? { ...server, ...change } : server)));
  }
  return (
    <fieldset>
      <legend>MCP servers</legend>
      {servers.length === 0 ? (
        <p className="hint">No MCP servers. Their tools are offered to every AI session.</p>
      ) : null}
      {servers.map((server, index) => (
        <div className="mcp-row" key={server.key} data-testid="mcp-server">
          <label className="field">
            <span>Name</span>
            <input
              value={server.name}
              required
              onChange={(event) => update(server.key, { name: event.target.value })}
              {...field(index, 'name').input}
            />
            {field(index, 'name').note}
          </label>
          <label className="field">
            <span>Command</span>
            <input
              value={server.command}
              required
              onChange={(event) => update(server.key, { command: event.target.value })}
              placeholder="npx"
              {...field(index, 'command').input}
            />
            {field(index, 'command').note}
          </label>
          <label className="field">
            <span>Args (one per line)</span>
            <textarea
              rows={2}
              value={server.args}
              onChange={(event) => update(server.key, { args: event.target.value })}
              {...field(index, 'args').input}
            />
            {field(index, 'args').note}
          </label>
          <label className="field">
            <span>Env (KEY=value per line)</span>
            <textarea
              rows={2}
              value={server.env}
              onChange={(event) => update(server.key, { env: event.target.value })}
              {...field(index, 'env').input}
            />
            {field(index, 'env').note}
          </label>
          <div className="mcp-actions">
            <label className="inline">
              <input
                type="checkbox"
                checked={server.enabled}
                onChange={(event) => update(server.key, { enabled: event.target.checked })}
              />{' '}
              Enabled
            </label>
            <button
              type="button"
              className="button-quiet"
              onClick={() => onChange(servers.filter((each) => each.key !== server.key))}
              aria-label={`Remove MCP server ${server.name || index + 1}`}
            >
              Remove
            </button>
          </div>
          <McpHealthCheck draft={server} />
          <ErrorNote error={rowError(index)} />
        </div>
      ))}
      <button
        type="button"
        className="button-secondary"
        onClick={() =>
          onChange([...servers, { key: newKey(), name: '', command: '', args: '', env: '', enabled: true }])
        }
      >
        + Add MCP server
      </button>
      <ErrorNote
        error={
          error?.isAbout('mcp_servers') && !servers.some((_, i) => error.isAbout(`mcp_servers.${i}`))
            ? error
            : null
        }
      />
    </fieldset>
  );
}
