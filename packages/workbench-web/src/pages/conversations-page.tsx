import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { api } from '../api/client.ts';
import type { ApiError } from '../api/errors.ts';
import type { Conversation, ConversationCreate } from '../api/library-types.ts';
import type { Project } from '../api/types.ts';
import { ConfirmButton } from '../components/confirm-button.tsx';
import { useFieldErrors } from '../components/field-errors.ts';
import { Empty, ErrorNote, invalidBy, Loading } from '../components/status.tsx';

/** Free conversations with the AI, about a project (its knowledge as context) or about nothing in particular. */
export default function ConversationsPage() {
  const conversations = useQuery<Conversation[], ApiError>({
    queryKey: ['conversations'],
    queryFn: () => api.conversations.list(),
  });
  const projects = useQuery<Project[], ApiError>({ queryKey: ['projects'], queryFn: api.projects.list });
  const projectName = (id: string | null) =>
    id ? (projects.data?.find((project) => project.id === id)?.name ?? id) : null;
  return (
    <div className="page">
      <h1>Conversations</h1>
      <p className="lede">
        Ask the AI about a project — it reads the project's knowledge — or about anything else.
      </p>
      <div className="two-columns">
        <section aria-labelledby="conversation-list-title">
          <h2 id="conversation-list-title">Your conversations</h2>
          {conversations.isPending ? <Loading what="conversations" /> : null}
          <ErrorNote error={conversations.error} />
          {conversations.data?.length === 0 ? (
            <Empty>No conversations yet. Start one with the form.</Empty>
          ) : null}
          <ul className="card-list" data-testid="conversation-list">
            {[...(conversations.data ?? [])].reverse().map((conversation) => (
              <ConversationCard
                key={conversation.id}
                conversation={conversation}
                project={projectName(conversation.project_id)}
              />
            ))}
          </ul>
        </section>
        <section aria-labelledby="conversation-create-title">
          <h2 id="conversation-create-title">New conversation</h2>
          <CreateConversationForm projects={projects.data ?? []} />
        </section>
      </div>
    </div>
  );
}

function ConversationCard({ conversation, project }: { conversation: Conversation; project: string | null }) {
  const queryClient = useQueryClient();
  const remove = useMutation<void, ApiError, void>({
    mutationFn: () => api.conversations.remove(conversation.id),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['conversations'] }),
  });
  return (
    <li className="card card-link">
      <div className="row">
        <Link to={`/conversations/${conversation.id}`} className="card-title">
          {conversation.title}
        </Link>
        <div className="spacer" />
        <ConfirmButton
          label="Delete"
          question={`Delete “${conversation.title}”?`}
          pending={remove.isPending}
          onConfirm={() => remove.mutate()}
        />
      </div>
      <p className="hint">
        {project ? `about ${project}` : 'no project'} · {new Date(conversation.created_at).toLocaleString()}
        {conversation.session_id ? '' : ' · not started'}
      </p>
      <ErrorNote error={remove.error} />
    </li>
  );
}

function CreateConversationForm({ projects }: { projects: Project[] }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const ids = useId();
  const [title, setTitle] = useState('');
  const [projectId, setProjectId] = useState('');
  const create = useMutation<Conversation, ApiError, ConversationCreate>({
    mutationFn: api.conversations.create,
    onSuccess: (conversation) => {
      void queryClient.invalidateQueries({ queryKey: ['conversations'] });
      void navigate(`/conversations/${conversation.id}`);
    },
  });
  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate({ title: title.trim(), project_id: projectId || null });
  }
  const error = create.error;
  // Each field's part of the error, cleared once the field is edited.
  const { about, onChange: clearOnEdit } = useFieldErrors(error);
  const general = error && !['title', 'project_id'].some((field) => error.isAbout(field)) ? error : null;
  return (
    <form onChange={clearOnEdit} className="card form" onSubmit={submit} aria-label="New conversation">
      <label className="field">
        <span>Title</span>
        <input
          name="title"
          value={title}
          required
          maxLength={200}
          placeholder="How does the login flow work?"
          {...invalidBy(about('title'), `${ids}-title-error`)}
          onChange={(event) => setTitle(event.target.value)}
        />
        <ErrorNote error={about('title')} id={`${ids}-title-error`} />
      </label>
      <label className="field">
        <span>Project (optional)</span>
        <select
          name="project_id"
          value={projectId}
          {...invalidBy(about('project_id'), `${ids}-project-error`)}
          onChange={(event) => setProjectId(event.target.value)}
        >
          <option value="">No project</option>
          {projects.map((project) => (
            <option key={project.id} value={project.id}>
              {project.name}
            </option>
          ))}
        </select>
        <span className="hint">
          With a project, the AI reads its knowledge and works in its repositories.
        </span>
        <ErrorNote error={about('project_id')} id={`${ids}-project-error`} />
      </label>
      <div className="form-actions">
        <button type="submit" className="button-primary" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Start conversation'}
        </button>
        <ErrorNote error={general} />
      </div>
    </form>
  );
}
