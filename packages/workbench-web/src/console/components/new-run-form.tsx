import type { Run } from '@keel/protocol/runtime';
import type { RunRequest, StartRunBody } from '@keel/web-client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  type FormEvent,
  type KeyboardEvent,
  type ReactNode,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react';
import type { ApiError } from '../../api/errors.ts';
import { ErrorNote } from '../../components/status.tsx';
import { keelWeb } from '../api/keel-web.ts';
import { fieldOfError } from '../field-error.ts';
import type { RunTarget } from '../run-target.ts';

const fields = [
  'prompt',
  'workdir',
  'model',
  'max_tokens',
  'max_cost_usd',
  'max_steps',
  'enable_thinking',
] as const;
type Field = (typeof fields)[number];
/** `POST /runtime/runs`'s body: its prompt and workdir, and the run request's options it passes on. */
type RunStart = StartRunBody & RunRequest;
const optionFields: readonly Field[] = [
  'model',
  'max_tokens',
  'max_cost_usd',
  'max_steps',
  'enable_thinking',
];

/** A number field's text as the request carries it: omitted when empty, a number when it is one, else as typed
 * (the API then names the field and says what it expects: one validator, the server's). */
function numberOrText(text: string): unknown {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  return /^-?\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : trimmed;
}

/**
 * `POST /runtime/runs` as a form: the prompt, the working directory (the server's by default) and, under
 * Options, the model, the run's budgets and thinking. Ctrl+Enter (⌘+Enter) starts it from any field. An API
 * error is shown under the field it names, which is marked invalid; anything else under the button. Started
 * "in" a project or task (`target`), the run gets its directory and continues its session.
 */
export function NewRunForm({
  defaultWorkdir,
  target,
  onClearTarget,
  onStarted,
}: {
  defaultWorkdir?: string;
  target?: RunTarget | null;
  onClearTarget?: () => void;
  onStarted: (run: Run) => void;
}) {
  const queryClient = useQueryClient();
  const id = useId();
  const [prompt, setPrompt] = useState('');
  const [workdir, setWorkdir] = useState('');
  const [model, setModel] = useState('');
  const [maxTokens, setMaxTokens] = useState('');
  const [maxCost, setMaxCost] = useState('');
  const [maxSteps, setMaxSteps] = useState('');
  const [thinking, setThinking] = useState(false);
  const [optionsOpen, setOptionsOpen] = useState(false);
  useEffect(() => {
    if (defaultWorkdir) setWorkdir((current) => current || defaultWorkdir);
  }, [defaultWorkdir]);
  // A project's or task's "Start a run": its directory, and the prompt ready to type.
  const promptRef = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (!target) return;
    setWorkdir(target.workdir);
    promptRef.current?.focus();
  }, [target]);
  // The session goes with the target's directory: another directory typed in leaves it.
  const session = target && workdir.trim() === target.workdir ? target.session_id : undefined;

  const start = useMutation<Run, ApiError, RunStart>({
    mutationFn: keelWeb.runs.start,
    onSuccess: (run) => {
      setPrompt('');
      void queryClient.invalidateQueries({ queryKey: ['runs'] });
      onStarted(run);
    },
  });
  const errorField = fieldOfError(start.error, fields);
  useEffect(() => {
    if (errorField && optionFields.includes(errorField as Field)) setOptionsOpen(true);
  }, [errorField]);

  function submit(event?: FormEvent) {
    event?.preventDefault();
    if (start.isPending) return;
    const body: RunStart = { prompt, workdir: workdir.trim() };
    if (session) body.session_id = session;
    if (model.trim()) body.model = model.trim();
    if (thinking) body.enable_thinking = true;
    const budgets: ['max_tokens' | 'max_cost_usd' | 'max_steps', string][] = [
      ['max_tokens', maxTokens],
      ['max_cost_usd', maxCost],
      ['max_steps', maxSteps],
    ];
    for (const [name, text] of budgets) {
      const value = numberOrText(text);
      if (value !== undefined) (body as unknown as Record<string, unknown>)[name] = value;
    }
    start.mutate(body);
  }
  function onKeyDown(event: KeyboardEvent) {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      submit();
    }
  }
  // Each field: its label, the control, and the API's error when it is about this field.
  const errorId = (name: Field) => `${id}-${name}-error`;
  const fieldError = (name: Field) =>
    errorField === name ? (
      <div className="field-error" data-error-for={name}>
        <ErrorNote error={start.error} id={errorId(name)} />
      </div>
    ) : null;
  // `errorBelow`: the field sits in a row too narrow for its error, which the row shows under itself.
  const field = (
    name: Field,
    label: string,
    control: (props: FieldProps) => ReactNode,
    errorBelow = false,
  ) => {
    const invalid = errorField === name;
    return (
      <div className="field" data-field={name}>
        <label htmlFor={`${id}-${name}`}>{label}</label>
        {control({
          id: `${id}-${name}`,
          name,
          'aria-invalid': invalid || undefined,
          'aria-describedby': invalid ? errorId(name) : undefined,
        })}
        {errorBelow ? null : fieldError(name)}
      </div>
    );
  };

  return (
    <form className="card form new-run" onSubmit={submit} onKeyDown={onKeyDown} aria-label="New run">
      <h2>New run</h2>
      {target ? (
        <div className="run-target" data-testid="run-target">
          <span>
            In {target.label}
            {session ? (
              <>
                {' '}
                · session <code>{session}</code>
              </>
            ) : (
              <span className="hint"> (another directory: no session)</span>
            )}
          </span>
          <button
            type="button"
            className="button-link"
            aria-label="Clear"
            title="Start runs outside it"
            onClick={() => onClearTarget?.()}
          >
            ×
          </button>
        </div>
      ) : null}
      {field('prompt', 'Prompt', (props) => (
        <textarea
          {...props}
          ref={promptRef}
          rows={4}
          required
          value={prompt}
          placeholder="What should the agent do?"
          onChange={(event) => setPrompt(event.target.value)}
        />
      ))}
      {field('workdir', 'Working directory', (props) => (
        <input
          {...props}
          required
          value={workdir}
          spellCheck={false}
          className="mono"
          onChange={(event) => setWorkdir(event.target.value)}
        />
      ))}
      <details
        className="run-options"
        open={optionsOpen}
        onToggle={(event) => setOptionsOpen(event.currentTarget.open)}
      >
        <summary>Options</summary>
        {field('model', 'Model', (props) => (
          <input
            {...props}
            value={model}
            placeholder="configured default"
            onChange={(event) => setModel(event.target.value)}
          />
        ))}
        <div className="budget-row">
          {field(
            'max_tokens',
            'Max tokens',
            (props) => (
              <input
                {...props}
                inputMode="numeric"
                value={maxTokens}
                onChange={(event) => setMaxTokens(event.target.value)}
              />
            ),
            true,
          )}
          {field(
            'max_cost_usd',
            'Max cost',
            (props) => (
              <input
                {...props}
                inputMode="decimal"
                value={maxCost}
                placeholder="USD"
                onChange={(event) => setMaxCost(event.target.value)}
              />
            ),
            true,
          )}
          {field(
            'max_steps',
            'Max steps',
            (props) => (
              <input
                {...props}
                inputMode="numeric"
                value={maxSteps}
                onChange={(event) => setMaxSteps(event.target.value)}
              />
            ),
            true,
          )}
        </div>
        {fieldError('max_tokens')}
        {fieldError('max_cost_usd')}
        {fieldError('max_steps')}
        <label className="inline" title="Needs a model that supports it">
          <input type="checkbox" checked={thinking} onChange={(event) => setThinking(event.target.checked)} />{' '}
          Thinking mode
        </label>
      </details>
      <div className="form-actions">
        <button type="submit" className="button-primary" disabled={start.isPending || !prompt.trim()}>
          {start.isPending ? 'Starting…' : 'Start run'}
        </button>
        <span className="hint">
          <kbd>Ctrl</kbd>+<kbd>Enter</kbd>
        </span>
      </div>
      {start.error && !errorField ? <ErrorNote error={start.error} /> : null}
    </form>
  );
}

interface FieldProps {
  id: string;
  name: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}
