import { useMutation } from '@tanstack/react-query';
import { api } from '../api/client.ts';
import type { ApiError } from '../api/errors.ts';
import type { QueuedMessage } from '../api/types.ts';
import { ErrorNote } from './status.tsx';

/**
 * The messages waiting for a session's running turn to end, next first, each with a way to take it out
 * (`DELETE /api/sessions/{id}/queue/{message_id}`): a cancelled message never runs. The list itself comes
 * over the WebSocket, so it updates when a message is delivered or cancelled from another tab.
 */
export function QueuedMessages({
  sessionId,
  messages,
  onChange,
}: {
  sessionId: string;
  messages: QueuedMessage[];
  onChange: (messages: QueuedMessage[]) => void;
}) {
  const cancel = useMutation<{ messages: QueuedMessage[] }, ApiError, string>({
    mutationFn: (messageId) => api.sessions.unqueue(sessionId, messageId),
    onSuccess: (answer) => onChange(answer.messages),
  });
  if (messages.length === 0) return null;
  return (
    <section className="queued-messages" aria-label="Queued messages">
      <h5>Queued: sent after the current turn</h5>
      <ol>
        {messages.map((message) => (
          <li key={message.id} className="queued-message" data-testid="queued-message">
            <span className="pre">{message.content}</span>
            <button
              type="button"
              className="button-link danger"
              aria-label={`Cancel the queued message: ${message.content.slice(0, 40)}`}
              disabled={cancel.isPending}
              onClick={() => cancel.mutate(message.id)}
            >
              Cancel
            </button>
          </li>
        ))}
      </ol>
      <ErrorNote error={cancel.error} />
    </section>
  );
}
