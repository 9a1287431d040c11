import { useMutation } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import type { ApiError } from '../../api/errors.ts';
import type { ConnectionTest, ConnectionTestInput } from '../../api/types.ts';
import { ErrorNote } from '../../components/status.tsx';

const shownModels = 30;

// How the service names the server it recognised (`server` of the answer), in the user's words.
const serverNames: Readonly<Record<string, string>> = {
  ollama: 'Ollama',
  vllm: 'vLLM',
  llamacpp: 'llama.cpp',
  lmstudio: 'LM Studio',
  deepseek: 'DeepSeek',
};

/** What the server said of a model: its context window, and a warning when it cannot call tools. */
function ModelFacts({ detail }: { detail: { context_length?: number; tools?: boolean } | undefined }) {
  if (!detail || (detail.context_length === undefined && detail.tools !== false)) return null;
  const window =
    detail.context_length === undefined
      ? undefined
      : detail.context_length >= 1024
        ? `${Math.round(detail.context_length / 1024)}k context`
        : `${detail.context_length} tokens context`;
  return (
    <span className="model-facts">
      {window}
      {window && detail.tools === false ? ' · ' : null}
      {detail.tools === false ? (
        <span className="warn" title="The server says this model cannot call tools: Keel's agent needs them.">
          no tools
        </span>
      ) : null}
    </span>
  );
}

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
  const details = new Map((result?.model_details ?? []).map((detail) => [detail.id, detail]));
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
              <strong>Connected</strong> to <code>{result.base_url}</code>
              {result.server && result.server !== 'openai'
                ? ` (${serverNames[result.server] ?? result.server})`
                : ''}
              : {result.models.length} {result.models.length === 1 ? 'model' : 'models'}.
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
                    <ModelFacts detail={details.get(offered)} />
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
