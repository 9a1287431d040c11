import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../../api/client.ts';
import type { ApiError } from '../../api/errors.ts';
import { type ProjectUpdate, type Provider, providers } from '../../api/library-types.ts';
import type { Project, Settings } from '../../api/types.ts';
import { ConfirmButton } from '../../components/confirm-button.tsx';
import { ErrorNote, invalidBy } from '../../components/status.tsx';

/**
 * The project's own settings: its default runner, each repository's merge-request provider, and deleting
 * it. A provider is part of the repository list, and the service generates the knowledge again when that
 * list is sent, so the repositories go only when a provider changed, with a warning first.
 */
export function ProjectSettings({ project }: { project: Project }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const ids = useId();
  const settings = useQuery<Settings, ApiError>({ queryKey: ['settings'], queryFn: api.settings.get });
  const [runner, setRunner] = useState(project.default_runner ?? '');
  const [chosen, setChosen] = useState<Record<string, Provider | ''>>(() =>
    Object.fromEntries(
      project.repositories.map((repository) => [repository.name, repository.provider ?? '']),
    ),
  );
  const [saved, setSaved] = useState(false);
  // After a save the service's answer is the truth.
  useEffect(() => {
    setRunner(project.default_runner ?? '');
    setChosen(
      Object.fromEntries(
        project.repositories.map((repository) => [repository.name, repository.provider ?? '']),
      ),
    );
  }, [project]);
  const providerChanged = project.repositories.some(
    (repository) => (chosen[repository.name] ?? '') !== (repository.provider ?? ''),
  );
  const dirty = providerChanged || runner !== (project.default_runner ?? '');

  const save = useMutation<Project, ApiError, ProjectUpdate>({
    mutationFn: (patch) => api.projects.update(project.id, patch),
    onSuccess: (next) => {
      queryClient.setQueryData(['project', project.id], next);
      void queryClient.invalidateQueries({ queryKey: ['projects'] });
      void queryClient.invalidateQueries({ queryKey: ['knowledge', project.id] });
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
    const patch: ProjectUpdate = { default_runner: runner || null };
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
  const about = (field: string) => (error?.isAbout(field) ? error : null);
  const general =
    error && !['default_runner', 'repositories'].some((field) => error.isAbout(field)) ? error : null;

  return (
    <section className="card project-settings" aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`}>Project settings</h2>
      <form className="form" onSubmit={submit} aria-label="Project settings">
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
          <div className="field">
            <span>Merge-request provider</span>
            {project.repositories.map((repository, index) => (
              <label className="provider-row" key={repository.name}>
                <code>{repository.name}</code>
                <select
                  name={`repositories.${index}.provider`}
                  value={chosen[repository.name] ?? ''}
                  disabled={project.status === 'INITIALIZING'}
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
            onConfirm={() => remove.mutate()}
          />
        </div>
        <ErrorNote error={remove.error} />
      </form>
    </section>
  );
}
