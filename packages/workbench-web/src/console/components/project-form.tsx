import type { Project } from '@keel/protocol/runtime';
import type { NewProject, ProjectUpdate } from '@keel/web-client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import type { ApiError } from '../../api/errors.ts';
import { ErrorNote, Loading } from '../../components/status.tsx';
import { keelWeb } from '../api/keel-web.ts';
import { useFieldErrors } from '../use-field-errors.tsx';

const DirectoryPicker = lazy(() => import('./directory-picker.tsx'));

// The 422's `details.issues` name them `body.<field>`, which ApiError reads without the `body.`.
const fields = ['name', 'description', 'workdir', 'code_paths'] as const;

/** The code paths typed, one a line. */
const linesOf = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

/**
 * `POST /api/projects` as a form, or with `project` its `PUT`: a name, what the project is, its directory
 * (typed, or browsed on the server's machine with `GET /api/directories`) and further code paths. An error
 * shows under the field it names, marked invalid. Editing sends only what changed, so a code path that has
 * gone since does not stop a rename.
 */
export default function ProjectForm({
  project,
  defaultWorkdir,
  onSaved,
  onCancel,
}: {
  project?: Project;
  defaultWorkdir?: string;
  onSaved: (project: Project) => void;
  onCancel?: () => void;
}) {
  const queryClient = useQueryClient();
  const id = useId();
  const [name, setName] = useState(project?.name ?? '');
  const [description, setDescription] = useState(project?.description ?? '');
  const [workdir, setWorkdir] = useState(project?.workdir ?? defaultWorkdir ?? '');
  const [codePaths, setCodePaths] = useState(project?.code_paths.join('\n') ?? '');
  const [browsing, setBrowsing] = useState(false);
  const nameInput = useRef<HTMLInputElement>(null);
  // Editing starts in the name; keyed on the mode, not the record, which a refetch replaces.
  const editing = project !== undefined;
  useEffect(() => {
    if (editing) nameInput.current?.focus();
  }, [editing]);
  const save = useMutation<Project, ApiError, NewProject | ProjectUpdate>({
    // Creating, the body is always a whole NewProject (see `body` below).
    mutationFn: (body) =>
      project ? keelWeb.projects.update(project.id, body) : keelWeb.projects.create(body as NewProject),
    onSuccess: (saved) => {
      queryClient.setQueryData(['project', saved.id], saved);
      void queryClient.invalidateQueries({ queryKey: ['projects'] });
      onSaved(saved);
    },
  });
  const errors = useFieldErrors(save.error, fields);

  const typed = {
    name: name.trim(),
    description: description.trim(),
    workdir: workdir.trim(),
    code_paths: linesOf(codePaths),
  };
  const body: NewProject | ProjectUpdate = project
    ? changes(project, typed)
    : {
        name: typed.name,
        workdir: typed.workdir,
        ...(typed.description ? { description: typed.description } : {}),
        ...(typed.code_paths.length ? { code_paths: typed.code_paths } : {}),
      };
  const unchanged = project !== undefined && Object.keys(body).length === 0;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!save.isPending && !unchanged) save.mutate(body);
  }

  return (
    <form
      className="card form project-form"
      onSubmit={submit}
      aria-label={project ? 'Edit project' : 'New project'}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && onCancel && !browsing) onCancel();
      }}
    >
      {project ? <h2>Edit project {project.name}</h2> : null}
      <div className="field">
        <label htmlFor={`${id}-name`}>Name</label>
        <input
          id={`${id}-name`}
          ref={nameInput}
          value={name}
          required
          placeholder="Shop"
          onChange={(event) => setName(event.target.value)}
          {...errors.invalid('name')}
        />
        {errors.note('name')}
      </div>
      <div className="field">
        <label htmlFor={`${id}-description`}>Description</label>
        <textarea
          id={`${id}-description`}
          rows={2}
          value={description}
          placeholder="What it is, for the agent (optional)"
          onChange={(event) => setDescription(event.target.value)}
          {...errors.invalid('description')}
        />
        {errors.note('description')}
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
            {...errors.invalid('workdir')}
          />
          <button type="button" className="button-secondary" onClick={() => setBrowsing(true)}>
            Browse…
          </button>
        </div>
        {errors.note('workdir')}
      </div>
      <div className="field">
        <label htmlFor={`${id}-code_paths`}>Code paths</label>
        <textarea
          id={`${id}-code_paths`}
          className="mono"
          rows={2}
          value={codePaths}
          spellCheck={false}
          placeholder="Further directories its runs may use, one a line (optional)"
          onChange={(event) => setCodePaths(event.target.value)}
          {...errors.invalid('code_paths')}
        />
        {errors.note('code_paths')}
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
        <button
          type="submit"
          className="button-primary"
          disabled={save.isPending || !typed.name || unchanged}
          title={unchanged ? 'Nothing changed yet' : undefined}
        >
          {project ? (save.isPending ? 'Saving…' : 'Save') : save.isPending ? 'Creating…' : 'Create project'}
        </button>
        {onCancel ? (
          <button type="button" className="button-secondary" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
      <ErrorNote error={errors.general} />
    </form>
  );
}

/** The fields of `typed` that differ from `project`'s: the body of its `PUT`. */
function changes(project: Project, typed: Required<ProjectUpdate>): ProjectUpdate {
  const body: ProjectUpdate = {};
  if (typed.name !== project.name) body.name = typed.name;
  if (typed.description !== project.description) body.description = typed.description;
  if (typed.workdir !== project.workdir) body.workdir = typed.workdir;
  if (typed.code_paths.join('\n') !== project.code_paths.join('\n')) body.code_paths = typed.code_paths;
  return body;
}
