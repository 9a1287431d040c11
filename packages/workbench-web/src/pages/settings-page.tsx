import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { api } from '../api/client.ts';
import type { ApiError } from '../api/errors.ts';
import type { Settings, SettingsUpdate } from '../api/types.ts';
import { CheckBanner } from '../components/check-banner.tsx';
import { useFieldErrors } from '../components/field-errors.ts';
import { ErrorNote, invalidBy, Loading } from '../components/status.tsx';
import { ConnectionTestButton } from './settings/connection-test.tsx';
import {
  type McpDraft,
  mcpFromDraft,
  mcpToDraft,
  type RunnerDraft,
  runnerFromDraft,
  runnerToDraft,
} from './settings/drafts.ts';
import { McpServersFieldset } from './settings/mcp-servers.tsx';
import { RunnerFieldset } from './settings/runner-configs.tsx';
import { SecretField } from './settings/secret-field.tsx';

const defaultGitlabApiUrl = 'https://gitlab.com/api/v4';

export default function SettingsPage() {
  const settings = useQuery<Settings, ApiError>({ queryKey: ['settings'], queryFn: api.settings.get });
  return (
    <div className="page">
      <h1>Settings</h1>
      <p className="lede">
        The AI model every stage uses, the runners that execute it, MCP servers, GitHub and GitLab.
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
  const [gitlabToken, setGitlabToken] = useState('');
  const [clearGitlabToken, setClearGitlabToken] = useState(false);
  const [gitlabApiUrl, setGitlabApiUrl] = useState(settings.gitlab_api_url ?? defaultGitlabApiUrl);
  const [gitName, setGitName] = useState(settings.git_identity?.name ?? '');
  const [gitEmail, setGitEmail] = useState(settings.git_identity?.email ?? '');
  const [prdHosts, setPrdHosts] = useState(settings.prd_links.allowed_hosts.join('\n'));
  const [prdPrivate, setPrdPrivate] = useState(settings.prd_links.allow_private_network);
  const [servers, setServers] = useState<McpDraft[]>(() => settings.mcp_servers.map(mcpToDraft));
  const [runnerDrafts, setRunnerDrafts] = useState<RunnerDraft[]>(() =>
    settings.runner_configs.map(runnerToDraft),
  );
  const [saved, setSaved] = useState(false);
  /** The service's word on secrets a save removed (their address changed without them). */
  const [cleared, setCleared] = useState<string | undefined>(undefined);

  // After a save the service's answer is the truth (secrets become "set", never shown).
  useEffect(() => {
    setModel(settings.model ?? '');
    setBaseUrl(settings.base_url ?? '');
    setDefaultRunner(settings.default_runner);
    setGithubApiUrl(settings.github_api_url);
    setGitlabApiUrl(settings.gitlab_api_url ?? defaultGitlabApiUrl);
    setGitName(settings.git_identity?.name ?? '');
    setGitEmail(settings.git_identity?.email ?? '');
    setPrdHosts(settings.prd_links.allowed_hosts.join('\n'));
    setPrdPrivate(settings.prd_links.allow_private_network);
    setServers(settings.mcp_servers.map(mcpToDraft));
    setRunnerDrafts(settings.runner_configs.map(runnerToDraft));
  }, [settings]);

  const save = useMutation<Settings, ApiError, SettingsUpdate>({
    mutationFn: api.settings.update,
    onSuccess: (next) => {
      queryClient.setQueryData(['settings'], next);
      void queryClient.invalidateQueries({ queryKey: ['settings', 'check'] });
      setApiKey('');
      setGithubToken('');
      setGitlabToken('');
      setClearApiKey(false);
      setClearGithubToken(false);
      setClearGitlabToken(false);
      setCleared(next.cleared_secrets?.length ? next.message : undefined);
      setSaved(true);
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    setSaved(false);
    const patch: SettingsUpdate = {
      model: model.trim() || null,
      base_url: baseUrl.trim() || null,
      default_runner: defaultRunner,
      runner_configs: runnerDrafts.map(runnerFromDraft),
      mcp_servers: servers.map(mcpFromDraft),
      github_api_url: githubApiUrl.trim() || 'https://api.github.com',
      gitlab_api_url: gitlabApiUrl.trim() || defaultGitlabApiUrl,
      git_identity: { name: gitName.trim() || null, email: gitEmail.trim() || null },
      prd_links: {
        allow_private_network: prdPrivate,
        allowed_hosts: prdHosts
          .split('\n')
          .map((host) => host.trim())
          .filter(Boolean),
      },
    };
    if (clearApiKey) patch.api_key = null;
    else if (apiKey) patch.api_key = apiKey;
    if (clearGithubToken) patch.github_token = null;
    else if (githubToken) patch.github_token = githubToken;
    if (clearGitlabToken) patch.gitlab_token = null;
    else if (gitlabToken) patch.gitlab_token = gitlabToken;
    save.mutate(patch);
  }

  const error = save.error;
  // Each field's part of the error, cleared once the field is edited.
  const { about, onChange: clearOnEdit } = useFieldErrors(error);
  const shownElsewhere = [
    'model',
    'base_url',
    'api_key',
    'default_runner',
    'runner_configs',
    'mcp_servers',
    'github_api_url',
    'github_token',
    'gitlab_api_url',
    'gitlab_token',
    'git_identity',
    'prd_links',
  ];
  const general = error && !shownElsewhere.some((field) => error.isAbout(field)) ? error : null;

  return (
    <form onChange={clearOnEdit} className="card form" onSubmit={submit} aria-label="Settings">
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
              {...invalidBy(about('model'), `${ids}-model-error`)}
            />
            <ErrorNote error={about('model')} id={`${ids}-model-error`} />
          </label>
          <label className="field">
            <span>Base URL</span>
            <input
              name="base_url"
              type="url"
              value={baseUrl}
              onChange={(event) => setBaseUrl(event.target.value)}
              placeholder="https://api.openai.com/v1"
              {...invalidBy(about('base_url'), `${ids}-base-url-error`)}
            />
            <ErrorNote error={about('base_url')} id={`${ids}-base-url-error`} />
          </label>
        </div>
        <SecretField
          id={`${ids}-api-key`}
          name="api_key"
          label="API key"
          isSet={settings.api_key_set}
          value={apiKey}
          onValue={setApiKey}
          clear={clearApiKey}
          onClear={setClearApiKey}
          placeholderSet="Stored — type a new key to replace it"
          placeholderUnset="Paste the key"
          stateTestId="api-key-state"
          error={about('api_key')}
        />
        <ConnectionTestButton
          values={() => ({
            ...(baseUrl.trim() ? { base_url: baseUrl.trim() } : {}),
            ...(apiKey && !clearApiKey ? { api_key: apiKey } : {}),
            ...(model.trim() ? { model: model.trim() } : {}),
          })}
          model={model.trim()}
          onPick={setModel}
        />
      </fieldset>

      <RunnerFieldset
        drafts={runnerDrafts}
        onDrafts={setRunnerDrafts}
        builtins={settings.builtin_runner_configs}
        defaultRunner={defaultRunner}
        onDefaultRunner={setDefaultRunner}
        error={error}
      />

      <McpServersFieldset servers={servers} onChange={setServers} error={error} />

      <ForgeFieldset
        forge="github"
        title="GitHub"
        ids={ids}
        isSet={settings.github_token_set}
        token={[githubToken, setGithubToken]}
        clear={[clearGithubToken, setClearGithubToken]}
        apiUrl={[githubApiUrl, setGithubApiUrl]}
        purpose="For opening and following pull requests"
        about={about}
      />
      <ForgeFieldset
        forge="gitlab"
        title="GitLab"
        ids={ids}
        isSet={settings.gitlab_token_set ?? false}
        token={[gitlabToken, setGitlabToken]}
        clear={[clearGitlabToken, setClearGitlabToken]}
        apiUrl={[gitlabApiUrl, setGitlabApiUrl]}
        purpose="For following merge requests"
        about={about}
        hint={
          <>
            Merge requests on GitLab are opened by the push itself; a token with the <code>read_api</code>{' '}
            scope lets the workbench follow their pipelines and comments.
          </>
        }
      />

      <fieldset>
        <legend>Commits</legend>
        <p className="hint">
          A task's commits are authored by each source repository's own git identity (its{' '}
          <code>user.name</code> and <code>user.email</code>, or your global git config). Where git names
          nobody, these are used, then "Keel Workbench".
        </p>
        <div className="grid-2">
          <label className="field">
            <span>Author name</span>
            <input
              name="git_identity.name"
              value={gitName}
              onChange={(event) => setGitName(event.target.value)}
              placeholder="e.g. Ada Lovelace"
              autoComplete="name"
              {...invalidBy(about('git_identity.name'), `${ids}-git-name-error`)}
            />
            <ErrorNote error={about('git_identity.name')} id={`${ids}-git-name-error`} />
          </label>
          <label className="field">
            <span>Author email</span>
            <input
              name="git_identity.email"
              type="email"
              value={gitEmail}
              onChange={(event) => setGitEmail(event.target.value)}
              placeholder="e.g. ada@example.com"
              autoComplete="email"
              {...invalidBy(about('git_identity.email'), `${ids}-git-email-error`)}
            />
            <ErrorNote error={about('git_identity.email')} id={`${ids}-git-email-error`} />
          </label>
        </div>
      </fieldset>

      <fieldset id="prd-links">
        <legend>PRD links</legend>
        <p className="hint">
          A task's PRD links are read when its plan is first drafted. Addresses on this machine or a private
          network are refused unless allowed here: a web page must not make the workbench read your local
          services.
        </p>
        <label className="field">
          <span>Allowed hosts (one per line: a host name, *.example.com, an IP address or a CIDR range)</span>
          <textarea
            name="prd_links.allowed_hosts"
            rows={3}
            value={prdHosts}
            onChange={(event) => setPrdHosts(event.target.value)}
            placeholder={'e.g. wiki.internal.example\n127.0.0.1'}
            {...invalidBy(about('prd_links'), `${ids}-prd-error`)}
          />
        </label>
        <label className="inline sentence">
          <input
            type="checkbox"
            name="prd_links.allow_private_network"
            checked={prdPrivate}
            onChange={(event) => setPrdPrivate(event.target.checked)}
          />{' '}
          Allow every private-network address (not only the hosts above)
        </label>
        <ErrorNote error={about('prd_links')} id={`${ids}-prd-error`} />
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
        {cleared && !save.isPending ? (
          <p className="banner banner-warn" role="alert" data-testid="cleared-secrets">
            {cleared}
          </p>
        ) : null}
        <ErrorNote error={general} />
      </div>
    </form>
  );
}

/** A code host's token (write-only, bound to its API URL by the service) and API URL. */
function ForgeFieldset(props: {
  forge: 'github' | 'gitlab';
  title: string;
  ids: string;
  isSet: boolean;
  token: [string, (value: string) => void];
  clear: [boolean, (value: boolean) => void];
  apiUrl: [string, (value: string) => void];
  purpose: string;
  about: (field: string) => ApiError | null;
  hint?: React.ReactNode;
}) {
  const { forge, ids, about } = props;
  const short = forge === 'github' ? 'gh' : 'gl';
  return (
    <fieldset>
      <legend>{props.title}</legend>
      {props.hint ? <p className="hint">{props.hint}</p> : null}
      <div className="grid-2">
        <SecretField
          id={`${ids}-${short}-token`}
          name={`${forge}_token`}
          label="Token"
          isSet={props.isSet}
          value={props.token[0]}
          onValue={props.token[1]}
          clear={props.clear[0]}
          onClear={props.clear[1]}
          placeholderSet="Stored — type to replace"
          placeholderUnset={props.purpose}
          stateTestId={`${forge}-token-state`}
          error={about(`${forge}_token`)}
        />
        <label className="field">
          <span>API URL</span>
          <input
            name={`${forge}_api_url`}
            type="url"
            value={props.apiUrl[0]}
            onChange={(event) => props.apiUrl[1](event.target.value)}
            {...invalidBy(about(`${forge}_api_url`), `${ids}-${short}-url-error`)}
          />
          <ErrorNote error={about(`${forge}_api_url`)} id={`${ids}-${short}-url-error`} />
        </label>
      </div>
    </fieldset>
  );
}
