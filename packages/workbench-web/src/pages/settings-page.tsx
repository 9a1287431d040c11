import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { api } from '../api/client.ts';
import type { ApiError } from '../api/errors.ts';
import type { McpServer, Settings, SettingsUpdate } from '../api/types.ts';
import { CheckBanner } from '../components/check-banner.tsx';
import { ErrorNote, Loading } from '../components/status.tsx';

/** An MCP server as the form edits it: args one per line, env as KEY=VALUE lines. */
interface McpDraft {
  key: number;
  name: string;
  command: string;
  args: string;
  env: string;
  enabled: boolean;
}

let nextKey = 1;

function toDraft(server: McpServer): McpDraft {
  return {
    key: nextKey++,
    name: server.name,
    command: server.command,
    args: server.args.join('\n'),
    env: Object.entries(server.env)
      .map(([name, value]) => `${name}=${value}`)
      .join('\n'),
    enabled: server.enabled,
  };
}

function fromDraft(draft: McpDraft): McpServer {
  const env: Record<string, string> = {};
  for (const line of draft.env.split('\n')) {
    const at = line.indexOf('=');
    if (line.trim() && at > 0) env[line.slice(0, at).trim()] = line.slice(at + 1);
  }
  return {
    name: draft.name.trim(),
    command: draft.command.trim(),
    args: draft.args.split('\n').filter((arg) => arg.trim() !== ''),
    env,
    enabled: draft.enabled,
  };
}

export default function SettingsPage() {
  const settings = useQuery<Settings, ApiError>({ queryKey: ['settings'], queryFn: api.settings.get });
  return (
    <div className="page">
      <h1>Settings</h1>
      <p className="lede">
        The AI model every stage uses, the runner that executes it, MCP servers and GitHub.
      </p>
      <CheckBanner />
      {settings.isPending ? <Loading what="settings" /> : null}
      <ErrorNote error={settings.error} />
      {settings.data ? <SettingsForm settings={settings.data} /> : null}
    </div>
  );
}

function SettingsForm({ settings }: { settings: Settings }) {
  const queryClient = useQueryClient();
  const ids = useId();
  const [model, setModel] = useState(settings.model ?? '');
  const [baseUrl, setBaseUrl] = useState(settings.base_url ?? '');
  const [apiKey, setApiKey] = useState('');
  const [clearApiKey, setClearApiKey] = useState(false);
  const [defaultRunner, setDefaultRunner] = useState(settings.default_runner);
  const [githubToken, setGithubToken] = useState('');
  const [clearGithubToken, setClearGithubToken] = useState(false);
  const [githubApiUrl, setGithubApiUrl] = useState(settings.github_api_url);
  const [servers, setServers] = useState<McpDraft[]>(() => settings.mcp_servers.map(toDraft));
  const [saved, setSaved] = useState(false);

  // After a save the service's answer is the truth (secrets become "set", never shown).
  useEffect(() => {
    setModel(settings.model ?? '');
    setBaseUrl(settings.base_url ?? '');
    setDefaultRunner(settings.default_runner);
    setGithubApiUrl(settings.github_api_url);
    setServers(settings.mcp_servers.map(toDraft));
  }, [settings]);

  const save = useMutation<Settings, ApiError, SettingsUpdate>({
    mutationFn: api.settings.update,
    onSuccess: (next) => {
      queryClient.setQueryData(['settings'], next);
      void queryClient.invalidateQueries({ queryKey: ['settings', 'check'] });
      setApiKey('');
      setGithubToken('');
      setClearApiKey(false);
      setClearGithubToken(false);
      setSaved(true);
    },
  });

  const runners = [
    ...settings.runner_configs,
    ...settings.builtin_runner_configs.filter(
      (builtin) => !settings.runner_configs.some((c) => c.id === builtin.id),
    ),
  ];

  function submit(event: FormEvent) {
    event.preventDefault();
    setSaved(false);
    const patch: SettingsUpdate = {
      model: model.trim() || null,
      base_url: baseUrl.trim() || null,
      default_runner: defaultRunner,
      mcp_servers: servers.map(fromDraft),
      github_api_url: githubApiUrl.trim() || 'https://api.github.com',
    };
    if (clearApiKey) patch.api_key = null;
    else if (apiKey) patch.api_key = apiKey;
    if (clearGithubToken) patch.github_token = null;
    else if (githubToken) patch.github_token = githubToken;
    save.mutate(patch);
  }

  const error = save.error;
  const about = (field: string) => (error?.isAbout(field) ? error : null);
  const shownElsewhere = ['model', 'base_url', 'api_key', 'default_runner', 'mcp_servers', 'github_api_url'];
  const general = error && !shownElsewhere.some((field) => error.isAbout(field)) ? error : null;

  function updateServer(key: number, change: Partial<McpDraft>) {
    setServers((list) => list.map((server) => (server.key === key ? { ...server, ...change } : server)));
  }

  return (
    <form className="card form" onSubmit={submit} aria-label="Settings">
      <fieldset>
        <legend>AI model</legend>
        <div className="grid-2">
          <label className="field">
            <span>Model</span>
            <input
              name="model"
              value={model}
              onChange={(event) => setModel(event.target.value)}
              placeholder="e.g. gpt-4.1 or qwen2.5-coder"
              autoComplete="off"
            />
            <ErrorNote error={about('model')} />
          </label>
          <label className="field">
            <span>Base URL</span>
            <input
              name="base_url"
              type="url"
              value={baseUrl}
              onChange={(event) => setBaseUrl(event.target.value)}
              placeholder="https://api.openai.com/v1"
            />
            <ErrorNote error={about('base_url')} />
          </label>
        </div>
        <div className="field">
          <label htmlFor={`${ids}-api-key`}>
            API key{' '}
            <span
              className={`secret-state ${settings.api_key_set ? 'is-set' : ''}`}
              data-testid="api-key-state"
            >
              {settings.api_key_set ? 'set' : 'not set'}
            </span>
          </label>
          <div className="row">
            <input
              id={`${ids}-api-key`}
              name="api_key"
              type="password"
              value={apiKey}
              disabled={clearApiKey}
              onChange={(event) => setApiKey(event.target.value)}
              placeholder={settings.api_key_set ? 'Stored — type a new key to replace it' : 'Paste the key'}
              autoComplete="new-password"
            />
            {settings.api_key_set ? (
              <label className="inline">
                <input
                  type="checkbox"
                  checked={clearApiKey}
                  onChange={(event) => setClearApiKey(event.target.checked)}
                />{' '}
                Remove
              </label>
            ) : null}
          </div>
          <ErrorNote error={about('api_key')} />
        </div>
      </fieldset>

      <fieldset>
        <legend>Runner</legend>
        <label className="field">
          <span>Default runner</span>
          <select
            name="default_runner"
            value={defaultRunner}
            onChange={(event) => setDefaultRunner(event.target.value)}
          >
            {runners.map((runner) => (
              <option key={runner.id} value={runner.id}>
                {runner.name} ({runner.kind})
              </option>
            ))}
          </select>
          <span className="hint">A task's runner wins over its project's, which wins over this one.</span>
          <ErrorNote error={about('default_runner')} />
        </label>
      </fieldset>

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
                onChange={(event) => updateServer(server.key, { name: event.target.value })}
              />
            </label>
            <label className="field">
              <span>Command</span>
              <input
                value={server.command}
                required
                onChange={(event) => updateServer(server.key, { command: event.target.value })}
                placeholder="npx"
              />
            </label>
            <label className="field">
              <span>Args (one per line)</span>
              <textarea
                rows={2}
                value={server.args}
                onChange={(event) => updateServer(server.key, { args: event.target.value })}
              />
            </label>
            <label className="field">
              <span>Env (KEY=value per line)</span>
              <textarea
                rows={2}
                value={server.env}
                onChange={(event) => updateServer(server.key, { env: event.target.value })}
              />
            </label>
            <div className="mcp-actions">
              <label className="inline">
                <input
                  type="checkbox"
                  checked={server.enabled}
                  onChange={(event) => updateServer(server.key, { enabled: event.target.checked })}
                />{' '}
                Enabled
              </label>
              <button
                type="button"
                className="button-quiet"
                onClick={() => setServers((list) => list.filter((each) => each.key !== server.key))}
                aria-label={`Remove MCP server ${server.name || index + 1}`}
              >
                Remove
              </button>
            </div>
            <ErrorNote error={about(`mcp_servers.${index}`)} />
          </div>
        ))}
        <button
          type="button"
          className="button-secondary"
          onClick={() =>
            setServers((list) => [
              ...list,
              { key: nextKey++, name: '', command: '', args: '', env: '', enabled: true },
            ])
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

      <fieldset>
        <legend>GitHub</legend>
        <div className="grid-2">
          <div className="field">
            <label htmlFor={`${ids}-gh-token`}>
              Token{' '}
              <span
                className={`secret-state ${settings.github_token_set ? 'is-set' : ''}`}
                data-testid="github-token-state"
              >
                {settings.github_token_set ? 'set' : 'not set'}
              </span>
            </label>
            <div className="row">
              <input
                id={`${ids}-gh-token`}
                name="github_token"
                type="password"
                value={githubToken}
                disabled={clearGithubToken}
                onChange={(event) => setGithubToken(event.target.value)}
                placeholder={
                  settings.github_token_set ? 'Stored — type to replace' : 'For opening pull requests'
                }
                autoComplete="new-password"
              />
              {settings.github_token_set ? (
                <label className="inline">
                  <input
                    type="checkbox"
                    checked={clearGithubToken}
                    onChange={(event) => setClearGithubToken(event.target.checked)}
                  />{' '}
                  Remove
                </label>
              ) : null}
            </div>
          </div>
          <label className="field">
            <span>API URL</span>
            <input
              name="github_api_url"
              type="url"
              value={githubApiUrl}
              onChange={(event) => setGithubApiUrl(event.target.value)}
            />
            <ErrorNote error={about('github_api_url')} />
          </label>
        </div>
      </fieldset>

      <div className="form-actions">
        <button type="submit" className="button-primary" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save settings'}
        </button>
        {saved && !save.isPending ? (
          <span className="saved" role="status">
            Saved.
          </span>
        ) : null}
        <ErrorNote error={general} />
      </div>
    </form>
  );
}
