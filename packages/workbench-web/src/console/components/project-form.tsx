import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, lazy, Suspense, useId, useState } from 'react';
import type { ApiError } from '../../api/errors.ts';
import { ErrorNote, invalidBy, Loading } from '../../components/status.tsx';
import { runtimeApi } from '../api/runtime-client.ts';
import type { NewProject, Project } from '../api/runtime-types.ts';
import { fieldOfError } from '../field-error.ts';

const DirectoryPicker = lazy(() => import('./directory-picker.tsx'));

// The 422's `details.issues` name them `body.<field>`, which ApiError reads without the `body.`.
const fields = ['name', 'description', 'workdir'] as const;

/**
 * `POST /api/projects` as a form: a name, what the project is, and its directory (typed, or browsed on the
 * server's machine with `GET /api/directories`). An error shows under the field it names, marked invalid.
 */
export default function ProjectForm({
  defaultWorkdir,
  onCreated,
}: {
  defaultWorkdir?: string;
  onCreated: (project: Project) => void;
}) {
  const queryClient = useQueryClient();
  const id = useId();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [workdir, setWorkdir] = useState(defaultWorkdir ?? '');
  const [browsing, setBrowsing] = useState(false);
  const create = useMutation<Project, ApiError, NewProject>({
    mutationFn: runtimeApi.projects.create,
    onSuccess: (project) => {
      void queryClient.invalidateQueries({ queryKey: ['projects'] });
      onCreated(project);
    },
  });
  const errorField = fieldOfError(create.error, fields);
  const errorOf = (field: (typeof fields)[number]) => (errorField === field ? create.error : null);
  const noteId = (field: string) => `${id}-${field}-error`;
  const note = (field: (typeof fields)[number]) =>
    errorOf(field) ? (
      <div className="field-error" data-error-for={field}>
        <ErrorNote error={errorOf(field)} id={noteId(field)} />
      </div>
    ) : null;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (create.isPending) return;
    create.mutate({
      name: name.trim(),
      workdir: workdir.trim(),
      ...(description.trim() ? { description: description.trim() } : {}),
    });
  }

  return (
    <form className="card form project-form" onSubmit={submit} aria-label="New project">
      <div className="field">
        <label htmlFor={`${id}-name`}>Name</label>
        <input
          id={`${id}-name`}
          value={name}
          required
          placeholder="Shop"
          onChange={(event) => setName(event.target.value)}
          {...invalidBy(errorOf('name'), noteId('name'))}
        />
        {note('name')}
      </div>
      <div className="field">
        <label htmlFor={`${id}-description`}>Description</label>
        <textarea
          id={`${id}-description`}
          rows={2}
          value={description}
          placeholder="What it is, for the agent (optional)"
          onChange={(event) => setDescription(event.target.value)}
          {...invalidBy(errorOf('description'), noteId('description'))}
        />
        {note('description')}
      </div>
      <div className="field">
        <label htmlFor={`${id}-workdir`}>Directory</label>
        <div className="input-with-button">
          <input
            id={`${id}-workdir`}
            className="mono"
            value={workdir}
            required
            spellCheck={false}
            onChange={(event) => setWorkdir(event.target.value)}
            {...invalidBy(errorOf('workdir'), noteId('workdir'))}
          />
          <button type="button" className="button-secondary" onClick={() => setBrowsing(true)}>
            Browse…
          </button>
        </div>
        {note('workdir')}
      </div>
      {browsing ? (
        <Suspense fallback={<Loading what="folders" />}>
          <DirectoryPicker
            start={workdir.trim() || defaultWorkdir}
            onPick={(path) => {
              setWorkdir(path);
              setBrowsing(false);
            }}
            onClose={() => setBrowsing(false)}
          />
        </Suspense>
      ) : null}
      <div className="form-actions">
        <button type="submit" className="button-primary" disabled={create.isPending || !name.trim()}>
          {create.isPending ? 'Creating…' : 'Create project'}
        </button>
      </div>
      {create.error && !errorField ? <ErrorNote error={create.error} /> : null}
    </form>
  );
}
