import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api } from '../api/client.ts';
import { ApiError } from '../api/errors.ts';
import type { Conversation } from '../api/library-types.ts';
import type { Project, Session } from '../api/types.ts';
import { ConfirmButton } from '../components/confirm-button.tsx';
import { MessageBox } from '../components/message-box.tsx';
import { isNotFound, NotFound } from '../components/not-found.tsx';
import { SessionView } from '../components/session-view.tsx';
import { ErrorNote, Loading } from '../components/status.tsx';
import { socket } from '../socket.ts';

/**
 * One conversation: opened (`POST .../init`) the first time it is shown, then its session's transcript
 * and a message box whose messages go over the WebSocket as `chat`; the reply streams into the transcript.
 */
export default function ConversationPage() {
  const { id = '' } = useParams();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const conversation = useQuery<Conversation, ApiError>({
    queryKey: ['conversation', id],
    queryFn: () => api.conversations.get(id),
  });
  const projectId = conversation.data?.project_id ?? null;
  const project = useQuery<Project, ApiError>({
    queryKey: ['project', projectId],
    queryFn: () => api.projects.get(projectId ?? ''),
    enabled: projectId !== null,
  });
  const init = useMutation<{ conversation: Conversation; session: Session }, ApiError, void>({
    mutationFn: () => api.conversations.init(id),
    onSuccess: ({ conversation: next }) => {
      queryClient.setQueryData(['conversation', id], next);
      void queryClient.invalidateQueries({ queryKey: ['conversations'] });
    },
  });
  const remove = useMutation<void, ApiError, void>({
    mutationFn: () => api.conversations.remove(id),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['conversations'] });
      void navigate('/conversations');
    },
  });

  // A conversation without a session is opened once, as soon as it is shown.
  const opened = useRef<string | null>(null);
  const data = conversation.data;
  useEffect(() => {
    if (data && !data.session_id && opened.current !== data.id) {
      opened.current = data.id;
      init.mutate();
    }
  }, [data, init]);

  if (conversation.isPending) return <Loading what="conversation" />;
  if (conversation.error) {
    if (isNotFound(conversation.error)) {
      return (
        <NotFound what="Conversation" id={id} back={{ to: '/conversations', label: 'All conversations' }} />
      );
    }
    return <ErrorNote error={conversation.error} />;
  }
  const current = conversation.data;
  return (
    <div className="page">
      <nav className="crumbs" aria-label="Breadcrumb">
        <Link to="/conversations">Conversations</Link> / <span>{current.title}</span>
      </nav>
      <div className="page-head">
        <h1>{current.title}</h1>
        <div className="spacer" />
        {current.session_id ? (
          <button
            type="button"
            className="button-secondary"
            disabled={init.isPending}
            onClick={() => init.mutate()}
            title="Opens a new session: the AI forgets this conversation's messages"
          >
            Start over
          </button>
        ) : null}
        <ConfirmButton
          label="Delete"
          question="Delete this conversation?"
          pending={remove.isPending}
          onConfirm={() => remove.mutate()}
        />
      </div>
      <p className="lede">
        {current.project_id ? (
          <>
            About{' '}
            <Link to={`/projects/${current.project_id}`}>{project.data?.name ?? current.project_id}</Link>:
            the AI reads its knowledge and works in its repositories.
          </>
        ) : (
          'Not about a project.'
        )}
      </p>
      <ErrorNote error={remove.error} />
      <ErrorNote error={init.error} />
      {init.error && !current.session_id ? (
        <button type="button" className="button-secondary" onClick={() => init.mutate()}>
          Try again
        </button>
      ) : null}
      {init.isPending ? <Loading what="a session" /> : null}
      {current.session_id ? <Chat key={current.session_id} sessionId={current.session_id} /> : null}
    </div>
  );
}

function Chat({ sessionId }: { sessionId: string }) {
  const [error, setError] = useState<ApiError | null>(null);
  // A refused chat (busy, no model…) comes back on the socket, not tied to a channel.
  useEffect(
    () =>
      socket.onError((failure) => {
        setError(new ApiError(0, failure));
      }),
    [],
  );
  return (
    <div className="conversation">
      <SessionView sessionId={sessionId} title="Conversation" />
      <MessageBox
        label="Message"
        placeholder="Ask a question. Enter sends, Shift+Enter is a new line."
        error={error}
        onSend={(message) => {
          setError(null);
          // Sent while an answer streams, the message waits in the session's queue (shown under the log).
          if (!socket.chat(sessionId, message)) {
            setError(
              new ApiError(0, {
                code: 'NOT_CONNECTED',
                message: 'The connection to the workbench is not open yet: send again in a moment.',
              }),
            );
          }
        }}
      />
    </div>
  );
}
