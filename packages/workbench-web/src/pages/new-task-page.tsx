import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type ClipboardEvent,
  type DragEvent,
  type FormEvent,
  type KeyboardEvent,
  useId,
  useState,
} from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api } from '../api/client.ts';
import type { ApiError } from '../api/errors.ts';
import type { Project, Settings, Task, TaskCreate, TaskImageInput } from '../api/types.ts';
import { useFieldErrors } from '../components/field-errors.ts';
import { ErrorNote, invalidBy, Loading } from '../components/status.tsx';

const maxImages = 8;
const maxImageBytes = Math.floor((5 * 1024 * 1024 * 3) / 4);

interface ImageDraft extends TaskImageInput {
  key: number;
  url: string;
}

let nextKey = 1;

/** A file as base64 without the `data:…;base64,` prefix. */
function readBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error('could not read the file'));
    reader.readAsDataURL(file);
  });
}

export default function NewTaskPage() {
  const ids = useId();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const projects = useQuery<Project[], ApiError>({ queryKey: ['projects'], queryFn: api.projects.list });
  const settings = useQuery<Settings, ApiError>({ queryKey: ['settings'], queryFn: api.settings.get });
  const [projectId, setProjectId] = useState(params.get('project') ?? '');
  const [description, setDescription] = useState('');
  const [links, setLinks] = useState('');
  const [runner, setRunner] = useState('');
  const [branch, setBranch] = useState('');
  const [images, setImages] = useState<ImageDraft[]>([]);
  const [imageProblem, setImageProblem] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);

  const create = useMutation<Task, ApiError, TaskCreate>({
    mutationFn: api.tasks.create,
    onSuccess: (task) => {
      void queryClient.invalidateQueries({ queryKey: ['tasks'] });
      void navigate(`/tasks/${task.id}`);
    },
  });

  const chosenProject = projectId || projects.data?.[0]?.id || '';

  async function addFiles(files: Iterable<File>) {
    setImageProblem(null);
    const added: ImageDraft[] = [];
    for (const file of files) {
      if (!file.type.startsWith('image/')) {
        setImageProblem(`${file.name || 'That file'} is not an image.`);
        continue;
      }
      if (file.size > maxImageBytes) {
        setImageProblem(`${file.name || 'The image'} is larger than 3.75 MB.`);
        continue;
      }
      const data = await readBase64(file);
      added.push({
        key: nextKey++,
        data,
        media_type: file.type,
        ...(file.name ? { filename: file.name } : {}),
        url: URL.createObjectURL(file),
      });
    }
    setImages((current) => {
      const next = [...current, ...added];
      if (next.length > maxImages) setImageProblem(`At most ${maxImages} images; the rest were left out.`);
      return next.slice(0, maxImages);
    });
  }

  function onPaste(event: ClipboardEvent) {
    const files = [...event.clipboardData.files].filter((file) => file.type.startsWith('image/'));
    if (files.length > 0) {
      event.preventDefault();
      void addFiles(files);
    }
  }

  function onDrop(event: DragEvent) {
    event.preventDefault();
    setDragging(false);
    void addFiles(event.dataTransfer.files);
  }

  function submit(event?: FormEvent) {
    event?.preventDefault();
    const prdLinks = links
      .split(/\s+/)
      .map((link) => link.trim())
      .filter(Boolean);
    create.mutate({
      project_id: chosenProject,
      description: description.trim(),
      prd_links: prdLinks,
      images: images.map(({ data, media_type, filename }) => ({
        data,
        media_type,
        ...(filename ? { filename } : {}),
      })),
      ...(runner ? { runner } : {}),
      ...(branch.trim() ? { branch: branch.trim() } : {}),
    });
  }

  // In the description, Enter is a new line; Ctrl/Cmd+Enter submits.
  function onKeyDown(event: KeyboardEvent) {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) submit();
  }

  const error = create.error;
  // Each field's part of the error, cleared once the field is edited.
  const { about, onChange: clearOnEdit } = useFieldErrors(error);
  // The field's invalid state and the id of the note beside it.
  const invalid = (field: string) => invalidBy(about(field), `${ids}-${field}-error`);
  const note = (field: string) => <ErrorNote error={about(field)} id={`${ids}-${field}-error`} />;
  const placed = ['project_id', 'description', 'prd_links', 'images', 'runner', 'branch'];
  const general = error && !placed.some((field) => error.isAbout(field)) ? error : null;
  const runners = settings.data
    ? [
        ...settings.data.runner_configs,
        ...settings.data.builtin_runner_configs.filter(
          (builtin) => !settings.data.runner_configs.some((config) => config.id === builtin.id),
        ),
      ]
    : [];

  if (projects.isPending) return <Loading what="projects" />;
  if (projects.data?.length === 0) {
    return (
      <div className="page">
        <h1>New task</h1>
        <div className="empty">
          A task belongs to a project. <Link to="/projects">Create a project</Link> first.
        </div>
      </div>
    );
  }
  const project = projects.data?.find((each) => each.id === chosenProject);

  return (
    <div className="page narrow" onPaste={onPaste}>
      <nav className="crumbs" aria-label="Breadcrumb">
        <Link to="/tasks">Tasks</Link> / <span>New</span>
      </nav>
      <h1>New task</h1>
      <ErrorNote error={projects.error} />
      <form onChange={clearOnEdit} className="card form" onSubmit={submit} aria-label="New task">
        <label className="field">
          <span>Project</span>
          <select
            name="project_id"
            value={chosenProject}
            onChange={(event) => setProjectId(event.target.value)}
            {...invalid('project_id')}
          >
            {projects.data?.map((each) => (
              <option key={each.id} value={each.id}>
                {each.name} ({each.status})
              </option>
            ))}
          </select>
          {project && project.status !== 'READY' ? (
            <span className="hint warn">
              Its knowledge is not generated yet: the task can be created, but stage 01 needs the project
              READY.
            </span>
          ) : null}
          {note('project_id')}
        </label>
        <label className="field">
          <span>What should be built?</span>
          <textarea
            name="description"
            rows={6}
            required
            value={description}
            onKeyDown={onKeyDown}
            onChange={(event) => setDescription(event.target.value)}
            placeholder="Describe the requirement. Paste screenshots anywhere on this page. Ctrl+Enter creates the task."
            {...invalid('description')}
          />
          {note('description')}
        </label>
        <label className="field">
          <span>PRD links (one per line, optional)</span>
          <textarea
            name="prd_links"
            rows={2}
            value={links}
            onChange={(event) => setLinks(event.target.value)}
            placeholder="https://…"
            {...invalid('prd_links')}
          />
          {note('prd_links')}
        </label>
        <div className="field">
          <label htmlFor={`${ids}-images`}>Images (optional, up to {maxImages})</label>
          <section
            aria-label="Drop images here"
            className={`dropzone ${dragging ? 'dragging' : ''}`}
            onDragOver={(event) => {
              event.preventDefault();
              setDragging(true);
            }}
            onDragLeave={() => setDragging(false)}
            onDrop={onDrop}
          >
            <input
              id={`${ids}-images`}
              type="file"
              accept="image/*"
              multiple
              {...invalid('images')}
              onChange={(event) => {
                if (event.target.files) void addFiles(event.target.files);
                event.target.value = '';
              }}
            />
            <span className="hint">or drop images here, or paste them.</span>
          </section>
          {images.length > 0 ? (
            <ul className="thumbs">
              {images.map((image) => (
                <li key={image.key}>
                  <img src={image.url} alt={image.filename ?? 'pasted image'} />
                  <button
                    type="button"
                    className="button-quiet thumb-remove"
                    aria-label={`Remove ${image.filename ?? 'image'}`}
                    onClick={() => setImages((list) => list.filter((each) => each.key !== image.key))}
                  >
                    ✕
                  </button>
                </li>
              ))}
            </ul>
          ) : null}
          {imageProblem ? <div className="error-text">{imageProblem}</div> : null}
          {note('images')}
        </div>
        <div className="grid-2">
          <label className="field">
            <span>Runner</span>
            <select
              name="runner"
              value={runner}
              onChange={(event) => setRunner(event.target.value)}
              {...invalid('runner')}
            >
              <option value="">Default (project, then settings)</option>
              {runners.map((each) => (
                <option key={each.id} value={each.id}>
                  {each.name} ({each.kind})
                </option>
              ))}
            </select>
            {note('runner')}
          </label>
          <label className="field">
            <span>Branch (optional)</span>
            <input
              name="branch"
              value={branch}
              onChange={(event) => setBranch(event.target.value)}
              placeholder="keel/<slug>-<id>"
              {...invalid('branch')}
            />
            {note('branch')}
          </label>
        </div>
        <div className="form-actions">
          <button type="submit" className="button-primary" disabled={create.isPending || !chosenProject}>
            {create.isPending ? 'Creating…' : 'Create task'}
          </button>
          <ErrorNote error={general} />
        </div>
      </form>
    </div>
  );
}
