import { useMutation } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import type { ApiError } from '../../api/errors.ts';
import type { ConnectionTest, ConnectionTestInput } from '../../api/types.ts';
import { ErrorNote } from '../../components/status.tsx';

const shownModels = 30;

/**
 * "Test connection": asks the service to call `{base_url}/models` with the form's values as they are now
 * (saved or not) and says what happened: the models it offers (each a button that puts it in the form's
 * model field), or why it failed, in words.
 */
export function ConnectionTestButton({
  values,
  model,
  onPick,
}: {
  values: () => ConnectionTestInput;
  /** The model in the form now: marked in the list. */
  model?: string;
  /** A model of the list picked: it goes into the form's model field (saved with the form). */
  onPick?: (model: string) => void;
}) {
  const test = useMutation<ConnectionTest, ApiError, ConnectionTestInput>({
    mutationFn: api.settings.testConnection,
  });
  const result = test.data;
  return (
    <div className="connection-test">
      <button
        type="button"
        className="button-secondary"
        disabled={test.isPending}
        onClick={() => test.mutate(values())}
      >
        {test.isPending ? 'Testing…' : 'Test connection'}
      </button>
      <ErrorNote error={test.error} />
      {result && !test.isPending && !test.error ? (
        result.ok ? (
          <div className="connection-result ok" role="status" data-testid="connection-result">
            <p>
              <strong>Connected</strong> to <code>{result.base_url}</code>: {result.models.length}{' '}
              {result.models.length === 1 ? 'model' : 'models'}.
              {result.model_found === false ? (
                <span className="warn"> The model set above is not among them.</span>
              ) : null}
            </p>
            {result.models.length > 0 ? (
              <ul className="model-list" aria-label="Models offered">
                {result.models.slice(0, shownModels).map((offered) => (
                  <li key={offered}>
                    {onPick ? (
                      <button
                        type="button"
                        className="model-pick"
                        aria-pressed={offered === model}
                        title={`Use ${offered} (then save)`}
                        onClick={() => onPick(offered)}
                      >
                        <code>{offered}</code>
                      </button>
                    ) : (
                      <code>{offered}</code>
                    )}
                  </li>
                ))}
                {result.models.length > shownModels ? (
                  <li className="hint">and {result.models.length - shownModels} more</li>
                ) : null}
              </ul>
            ) : null}
          </div>
        ) : (
          <div className="error-note" role="alert" data-testid="connection-result">
            <span className="error-words">
              Connection failed. {result.error?.message ?? 'The service gave no reason.'}
            </span>
          </div>
        )
      ) : null}
    </div>
  );
}
