import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../api/client.ts';
import type { ApiError } from '../api/errors.ts';
import type { Session } from '../api/types.ts';
import { ErrorNote } from './status.tsx';

/**
 * Stops a session's running work (`POST /api/sessions/{id}/stop`, which answers once the work ended), then
 * refreshes what the work changed: a stopped todo is failed, a stopped plan turn keeps the last plan.
 * "Nothing is running" (409 SESSION_NOT_RUNNING) is not a failure here: the work had ended already.
 */
export function StopButton({
  sessionId,
  label = 'Stop',
  what,
  onStopped,
}: {
  sessionId: string;
  label?: string;
  /** What runs, for the button's accessible name ("Stop the plan turn"). */
  what?: string;
  onStopped?: (session: Session | null) => void;
}) {
  const queryClient = useQueryClient();
  const stop = useMutation<Session | null, ApiError>({
    mutationFn: async () => {
      try {
        return await api.sessions.stop(sessionId);
      } catch (error) {
        if ((error as ApiError).code === 'SESSION_NOT_RUNNING') return null;
        throw error;
      }
    },
    onSuccess: (session) => onStopped?.(session),
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: ['task'] });
      await queryClient.invalidateQueries({ queryKey: ['todo-diff'] });
    },
  });
  return (
    <>
      <button
        data-shortcut="stop"
        type="button"
        className="button-danger"
        disabled={stop.isPending}
        aria-label={what ? `Stop ${what}` : undefined}
        title="Stop the running work; it can be run again"
        onClick={() => stop.mutate()}
      >
        {stop.isPending ? 'Stopping…' : label}
      </button>
      <ErrorNote error={stop.error} />
    </>
  );
}
