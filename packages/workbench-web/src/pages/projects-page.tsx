import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { api } from '../api/client.ts';
import type { ApiError } from '../api/errors.ts';
import { type Project, type ProjectCreate, type RepositoryType, repositoryTypes } from '../api/types.ts';
import { DirectoryPicker } from '../components/directory-picker.tsx';
import { useFieldErrors } from '../components/field-errors.ts';
import { Badge, Empty, ErrorNote, invalidBy, Loading } from '../components/status.tsx';

export default function ProjectsPage() {
  const projects = useQuery<Project[], ApiError>({ queryKey: ['projects'], queryFn: api.projects.list });
  return (
    <div className="page">
      <h1>Projects</h1>
      <p className="lede">
        A project is one or more local git repositories. Generate its knowledge once, then create tasks on it.
      </p>
      <div className="two-columns">
        <section aria-labelledby="project-list-title">
          <h2 id="project-list-title">Your projects</h2>
          {projects.isPending ? <Loading what="projects" /> : null}
          <ErrorNote error={projects.error} />
          {projects.data && projects.data.length === 0 ? (
            <Empty>No projects yet. Create the first one with the form.</Empty>
          ) : null}
          <ul className="card-list" data-testid="project-list">
            {projects.data?.map((project) => (
              <li key={project.id} className="card card-link">
                <Link to={`/projects/${project.id}`} className="card-title">
                  {project.name}
                </Link>
                <Badge value={project.status} />
                {project.description ? <p className="muted clamp">{project.description}</p> : null}
                <p className="hint">
                  {project.repositories
                    .map((repository) => `${repository.name} (${repository.type})`)
                    .join(' · ')}
                </p>
              </li>
            ))}
          </ul>
        </section>
        <section aria-labelledby="project-create-title">
          <h2 id="project-create-title">New project</h2>
          <CreateProjectForm />
        </section>
      </div>
    </div>
  );
}

interface RepositoryDraft {
  key: number;
  path: string;
  type: RepositoryType;
}

let nextKey = 1;

function CreateProjectForm() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const ids = useId();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [repositories, setRepositories] = useState<RepositoryDraft[]>([
    { key: nextKey++, path: '', type: 'backend' },
  ]);
  // The repository row whose folder is being chosen in the directory picker.
  const [browsing, setBrowsing] = useState<number | null>(null);
  const create = useMutation<Project, ApiError, ProjectCreate>({
    mutationFn: api.projects.create,
    onSuccess: (project) => {
      void queryClient.invalidateQueries({ queryKey: ['projects'] });
      void navigate(`/projects/${project.id}`);
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate({
      name: name.trim(),
      description: description.trim(),
      repositories: repositories.map((repository) => ({
        path: repository.path.trim(),
        type: repository.type,
      })),
    });
  }

  function update(key: number, change: Partial<RepositoryDraft>) {
    setRepositories((list) => list.map((each) => (each.key === key ? { ...each, ...change } : each)));
  }

  const error = create.error;
  // Each field's part of the error, cleared once the field is edited.
  const { about, onChange: clearOnEdit } = useFieldErrors(error);
  const placed = ['name', 'description', ...repositories.map((_, index) => `repositories.${index}`)];
  const general = error && !placed.some((field) => error.isAbout(field)) ? error : null;

  return (
    <form onChange={clearOnEdit} className="card form" onSubmit={submit} aria-label="New project">
      <label className="field">
        <span>Name</span>
        <input
          name="name"
          value={name}
          required
          onChange={(event) => setName(event.target.value)}
          {...invalidBy(about('name'), `${ids}-name-error`)}
        />
        <ErrorNote error={about('name')} id={`${ids}-name-error`} />
      </label>
      <label className="field">
        <span>Description</span>
        <textarea
          name="description"
          rows={3}
          value={description}
          onChange={(event) => setDescription(event.target.value)}
          placeholder="What the product does; it grounds the knowledge and every plan."
          {...invalidBy(about('description'), `${ids}-description-error`)}
        />
        <ErrorNote error={about('description')} id={`${ids}-description-error`} />
      </label>
      <fieldset>
        <legend>Repositories</legend>
        {repositories.map((repository, index) => {
          const pathError = about(`repositories.${index}`);
          return (
            <div className="repo-row" key={repository.key} data-testid="repository-row">
              <label className="field grow">
                <span>Local path</span>
                <input
                  name={`repositories.${index}.path`}
                  value={repository.path}
                  required
                  placeholder="/home/me/code/my-service"
                  {...invalidBy(pathError, `${ids}-${index}-path-error`)}
                  onChange={(event) => update(repository.key, { path: event.target.value })}
                />
              </label>
              <button
                type="button"
                className="button-secondary browse"
                aria-label={`Browse for repository ${index + 1}`}
                onClick={() => setBrowsing(repository.key)}
              >
                Browse…
              </button>
              {browsing === repository.key ? (
                <DirectoryPicker
                  start={repository.path.trim()}
                  onClose={() => setBrowsing(null)}
                  onPick={(path) => {
                    update(repository.key, { path });
                    setBrowsing(null);
                  }}
                />
              ) : null}
              <label className="field">
                <span>Type</span>
                <select
                  name={`repositories.${index}.type`}
                  value={repository.type}
                  onChange={(event) => update(repository.key, { type: event.target.value as RepositoryType })}
                >
                  {repositoryTypes.map((type) => (
                    <option key={type} value={type}>
                      {type}
                    </option>
                  ))}
                </select>
              </label>
              <button
                type="button"
                className="button-quiet remove"
                disabled={repositories.length === 1}
                aria-label={`Remove repository ${index + 1}`}
                onClick={() => setRepositories((list) => list.filter((each) => each.key !== repository.key))}
              >
                ✕
              </button>
              {pathError ? (
                <div className="repo-error">
                  <ErrorNote error={pathError} id={`${ids}-${index}-path-error`} />
                </div>
              ) : null}
            </div>
          );
        })}
        <button
          type="button"
          className="button-secondary"
          onClick={() => setRepositories((list) => [...list, { key: nextKey++, path: '', type: 'frontend' }])}
        >
          + Add repository
        </button>
      </fieldset>
      <div className="form-actions">
        <button type="submit" className="button-primary" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create project'}
        </button>
        <ErrorNote error={general} />
      </div>
    </form>
  );
}
