import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiError } from '../../api/errors.ts';
import type { Session, Task } from '../../api/types.ts';

export function storeTask(queryClient: QueryClient, task: Task) {
  queryClient.setQueryData(['task', task.id], task);
  void queryClient.invalidateQueries({ queryKey: ['tasks'] });
}
/** A mutation whose answer is a task, or `{task, …}`: the cache takes it at once. */
export function useTaskAction<Input = void>(
  task: Task,
  run: (input: Input) => Promise<Task | { task: Task }>,
) {
  const queryClient = useQueryClient();
  return useMutation<Task | { task: Task }, ApiError, Input>({
    mutationFn: run,
    onSuccess: (answer) => storeTask(queryClient, 'task' in answer ? answer.task : answer),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['task', task.id] }),
  });
}

/** Refreshes the task when a session it shows finishes (its answer landed in the task). */
export function useRefreshOnFinish(task: Task) {
  const queryClient = useQueryClient();
  return (session: Session) => {
    if (session.status !== 'running' && session.status !== 'queued') {
      void queryClient.invalidateQueries({ queryKey: ['task', task.id] });
    }
  };
}
