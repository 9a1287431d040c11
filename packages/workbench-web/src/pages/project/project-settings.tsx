import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../../api/client.ts';
import type { ApiError } from '../../api/errors.ts';
import { type ProjectUpdate, type Provider, providers } from '../../api/library-types.ts';
import type {
  Project,
  ProjectRepositoryConfig,
  ProjectTrustUpdate,
  RepositoryConfigAsk,
  Settings,
} from '../../api/types.ts';
import { ConfirmButton } from '../../components/confirm-button.tsx';
import { useFieldErrors } from '../../components/field-errors.ts';
import { ErrorNote, invalidBy } from '../../components/status.tsx';

/**
 * The project's own settings: its default and reviewer runners, each repository's merge-request provider, whether its
 * repositories' Keel config is trusted, and deleting it. A provider is part of the repository list, and the
 * service generates the knowledge again when that list is sent, so the repositories go only when a
 * provider changed, with a warning first. The trust box shows what each repository's
 * `.runtime/config.json` asks for, and only when one asks for something (or trust is on).
 */
export function ProjectSettings({ project }: { project: Project }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const ids = useId();
  const settings = useQuery<Settings, ApiError>({ queryKey: ['settings'], queryFn: api.settings.get });
  const repositoryConfig = useQuery<ProjectRepositoryConfig, ApiError>({
    queryKey: ['repository-config', project.id],
    queryFn: () => api.projects.repositoryConfig(project.id),
  });
  const [runner, setRunner] = useState(project.default_runner ?? '');
  const [reviewRunner, setReviewRunner] = useState(project.review_runner ?? '');
  const [trust, setTrust] = useState(project.trust_repository_config);
  const [chosen, setChosen] = useState<Record<string, Provider | ''>>(() =>
    Object.fromEntries(
      project.repositories.map((repository) => [repository.name, repository.provider ?? '']),
    ),
  );
  const [saved, setSaved] = useState(false);
  // After a save the service's answer is the truth. Each field follows only its own stored value: the
  // project also changes while the user edits (its status as the knowledge is generated), and that must
  // not throw away an unsaved choice.
  const storedRunner = project.default_runner ?? '';
  useEffect(() => setRunner(storedRunner), [storedRunner]);
  const storedReviewRunner = project.review_runner ?? '';
  useEffect(() => setReviewRunner(storedReviewRunner), [storedReviewRunner]);
  const storedTrust = project.trust_repository_config;
  useEffect(() => setTrust(storedTrust), [storedTrust]);
  const storedProviders = JSON.stringify(
    project.repositories.map((repository) => [repository.name, repository.provider ?? '']),
  );
  useEffect(() => setChosen(Object.fromEntries(JSON.parse(storedProviders))), [storedProviders]);
  const providerChanged = project.repositories.some(
    (repository) => (chosen[repository.name] ?? '') !== (repository.provider ?? ''),
  );
  // The service refuses to change the repositories or delete the project while its knowledge is generated.
  const generating = project.status === 'INITIALIZING';
  const trustChanged = trust !== project.trust_repository_config;
  const reviewRunnerChanged = reviewRunner !== storedReviewRunner;
  const dirty =
    providerChanged || trustChanged || reviewRunnerChanged || runner !== (project.default_runner ?? '');

  const save = useMutation<Project, ApiError, ProjectUpdate & ProjectTrustUpdate>({
    mutationFn: (patch) => api.projects.update(project.id, patch),
    onSuccess: (next) => {
      queryClient.setQueryData(['project', project.id], next);
      void queryClient.invalidateQueries({ queryKey: ['projects'] });
      void queryClient.invalidateQueries({ queryKey: ['knowledge', project.id] });
      void queryClient.invalidateQueries({ queryKey: ['repository-config', project.id] });
      setSaved(true);
    },
  });
  const remove = useMutation<void, ApiError, void>({
    mutationFn: () => api.projects.remove(project.id),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: ['project', project.id] });
      void queryClient.invalidateQueries({ queryKey: ['projects'] });
      void queryClient.invalidateQueries({ queryKey: ['tasks'] });
      void navigate('/projects');
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    setSaved(false);
    const patch: ProjectUpdate & ProjectTrustUpdate = { default_runner: runner || null };
    if (trustChanged) patch.trust_repository_config = trust;
    if (reviewRunnerChanged) patch.review_runner = reviewRunner || null;
    if (providerChanged) {
      patch.repositories = project.repositories.map((repository) => {
        const provider = chosen[repository.name];
        return {
          path: repository.path,
          type: repository.type,
          name: repository.name,
          ...(provider ? { provider } : {}),
        };
      });
    }
    save.mutate(patch);
  }

  const configs = [
    ...(settings.data?.runner_configs ?? []),
    ...(settings.data?.builtin_runner_configs ?? []).filter(
      (builtin) => !settings.data?.runner_configs.some((config) => config.id === builtin.id),
    ),
  ];
  const error = save.error;
  // Each field's part of the error, cleared once the field is edited.
  const { about, onChange: clearOnEdit } = useFieldErrors(error);
  const general =
    error &&
    !['default_runner', 'review_runner', 'repositories', 'trust_repository_config'].some((field) =>
      error.isAbout(field),
    )
      ? error
      : null;
  const asking = (repositoryConfig.data?.repositories ?? []).filter(
    (repository) => repository.asks.length > 0 || repository.error,
  );
  const showTrust = asking.length > 0 || project.trust_repository_config;

  return (
    <section className="card project-settings" aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`}>Project settings</h2>
      <form onChange={clearOnEdit} className="form" onSubmit={submit} aria-label="Project settings">
        <div className="grid-2">
          <label className="field">
            <span>Default runner</span>
            <select
              name="default_runner"
              value={runner}
              {...invalidBy(about('default_runner'), `${ids}-runner-error`)}
              onChange={(event) => setRunner(event.target.value)}
            >
              <option value="">The global default ({settings.data?.default_runner ?? '…'})</option>
              {runner && !configs.some((config) => config.id === runner) ? (
                <option value={runner}>{runner} (not configured)</option>
              ) : null}
              {configs.map((config) => (
                <option key={config.id} value={config.id}>
                  {config.name} ({config.kind})
                </option>
              ))}
            </select>
            <span className="hint">Tasks of this project use it unless they name their own.</span>
            <ErrorNote error={about('default_runner') ?? settings.error} id={`${ids}-runner-error`} />
          </label>
          <label className="field">
            <span>Reviewer runner</span>
            <select
              name="review_runner"
              value={reviewRunner}
              {...invalidBy(about('review_runner'), `${ids}-review-runner-error`)}
              onChange={(event) => setReviewRunner(event.target.value)}
            >
              <option value="">The task's runner</option>
              {reviewRunner && !configs.some((config) => config.id === reviewRunner) ? (
                <option value={reviewRunner}>{reviewRunner} (not configured)</option>
              ) : null}
              {configs.map((config) => (
                <option key={config.id} value={config.id}>
                  {config.name} ({config.kind})
                </option>
              ))}
            </select>
            <span className="hint">
              Reviews each task's change at the start of stage 05, read-only: a second opinion can come from
              another agent.
            </span>
            <ErrorNote error={about('review_runner')} id={`${ids}-review-runner-error`} />
          </label>
          <div className="field">
            <span>Merge-request provider</span>
            {project.repositories.map((repository, index) => (
              <label className="provider-row" key={repository.name}>
                <code>{repository.name}</code>
                <select
                  name={`repositories.${index}.provider`}
                  value={chosen[repository.name] ?? ''}
                  disabled={generating}
                  {...invalidBy(about(`repositories.${index}`), `${ids}-${index}-provider-error`)}
                  onChange={(event) =>
                    setChosen((current) => ({
                      ...current,
                      [repository.name]: event.target.value as Provider | '',
                    }))
                  }
                >
                  <option value="">auto (from the remote URL)</option>
                  {providers.map((provider) => (
                    <option key={provider} value={provider}>
                      {provider}
                    </option>
                  ))}
                </select>
                <ErrorNote error={about(`repositories.${index}`)} id={`${ids}-${index}-provider-error`} />
              </label>
            ))}
            {providerChanged ? (
              <span className="hint warn" role="note">
                Saving a provider sends the repositories again: the service resets the knowledge, and it must
                be generated again.
              </span>
            ) : (
              <span className="hint">For self-hosted GitLab or GitHub Enterprise remotes.</span>
            )}
          </div>
        </div>
        {showTrust ? (
          <fieldset className="field" aria-labelledby={`${ids}-trust-title`}>
            <span id={`${ids}-trust-title`}>Keel config in the repositories</span>
            {asking.map((repository) => (
              <div key={repository.repository}>
                <p className="hint">
                  <code>{repository.repository}</code> asks, in <code>{repository.file}</code> (
                  {repository.trusted ? 'applied now' : 'ignored now'}):
                </p>
                {repository.error ? (
                  <div className="error-note" role="alert">
                    <strong>{repository.error.code}</strong> {repository.error.message}
                  </div>
                ) : (
                  <table
                    className="list-table"
                    aria-label={`What ${repository.repository}'s config asks for`}
                  >
                    <thead>
                      <tr>
                        <th scope="col">Key</th>
                        <th scope="col">Value</th>
                        <th scope="col">Why it needs trust</th>
                      </tr>
                    </thead>
                    <tbody>
                      {repository.asks.map((ask) => (
                        <tr key={ask.key}>
                          <th scope="row">
                            <code>{ask.key}</code>
                          </th>
                          <td>
                            <code>{shown(ask)}</code>
                          </td>
                          <td>{ask.why}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                )}
              </div>
            ))}
            <label className="inline">
              <input
                type="checkbox"
                name="trust_repository_config"
                checked={trust}
                {...invalidBy(about('trust_repository_config'), `${ids}-trust-error`)}
                onChange={(event) => setTrust(event.target.checked)}
              />{' '}
              Trust the repositories' Keel config (.runtime/config.json)
            </label>
            <span className="hint warn" role="note">
              Trusted, these keys apply in this project's Keel runs: a repository's file can then send your
              model key to another address, turn the sandbox off or run commands. Trust only repositories
              whose config you have read.
            </span>
            <ErrorNote error={about('trust_repository_config')} id={`${ids}-trust-error`} />
            <ErrorNote error={repositoryConfig.error} />
          </fieldset>
        ) : null}
        <div className="form-actions">
          <button type="submit" className="button-primary" disabled={!dirty || save.isPending}>
            {save.isPending ? 'Saving…' : 'Save project settings'}
          </button>
          {saved && !dirty && !save.isPending ? (
            <span className="saved" role="status">
              Saved.
            </span>
          ) : null}
          <ErrorNote error={general} />
          <div className="spacer" />
          <ConfirmButton
            label="Delete project"
            question={`Delete ${project.name} with its tasks and knowledge? The repositories stay.`}
            confirm="Delete"
            pending={remove.isPending}
            disabled={generating}
            title={
              generating ? 'The knowledge is being generated: delete the project once it ended.' : undefined
            }
            onConfirm={() => remove.mutate()}
          />
        </div>
        {generating ? (
          <p className="hint">The project can be deleted once its knowledge generation has ended.</p>
        ) : null}
        <ErrorNote error={remove.error} />
      </form>
    </section>
  );
}

/** A value as the config file writes it (strings bare, everything else as JSON). */
function shown(ask: RepositoryConfigAsk): string {
  return typeof ask.value === 'string' ? ask.value : JSON.stringify(ask.value);
}
