import { useId } from 'react';
import type { ApiError } from '../../api/errors.ts';
import { type RunnerConfig, type RunnerKind, runnerKinds } from '../../api/types.ts';
import { ErrorNote, invalidBy } from '../../components/status.tsx';
import { emptyRunner, type RunnerDraft } from './drafts.ts';

/**
 * The Runner fieldset: the user's runner configs (each a row: id, name, kind, binary, model, extra args,
 * env) and the default-runner select, which lists them (as edited, before saving) and the built-in ones.
 */
export function RunnerFieldset({
  drafts,
  onDrafts,
  builtins,
  defaultRunner,
  onDefaultRunner,
  error,
}: {
  drafts: RunnerDraft[];
  onDrafts: (next: RunnerDraft[]) => void;
  builtins: RunnerConfig[];
  defaultRunner: string;
  onDefaultRunner: (id: string) => void;
  error: ApiError | null;
}) {
  const ids = useId();
  const about = (field: string) =>
    error?.isAbout(field) ? error.narrowed((each) => each === field || each.startsWith(`${field}.`)) : null;
  const named = drafts.filter((draft) => draft.id.trim());
  const choices = [
    ...named.map((draft) => ({ id: draft.id.trim(), label: `${draft.name || draft.id} (${draft.kind})` })),
    ...builtins
      .filter((builtin) => !named.some((draft) => draft.id.trim() === builtin.id))
      .map((builtin) => ({ id: builtin.id, label: `${builtin.name} (${builtin.kind}, built in)` })),
  ];
  function update(key: number, change: Partial<RunnerDraft>) {
    const before = drafts.find((draft) => draft.key === key);
    onDrafts(drafts.map((draft) => (draft.key === key ? { ...draft, ...change } : draft)));
    // Renaming the default config's id keeps it the default.
    if (before && change.id !== undefined && before.id.trim() && before.id.trim() === defaultRunner) {
      onDefaultRunner(change.id.trim());
    }
  }
  const rowError = (index: number) =>
    about(`runner_configs.${index}`) &&
    !['id', 'name', 'kind', 'binary_path', 'model', 'extra_args', 'env'].some((field) =>
      about(`runner_configs.${index}.${field}`),
    )
      ? error
      : null;
  return (
    <fieldset>
      <legend>Runner</legend>
      <label className="field">
        <span>Default runner</span>
        <select
          name="default_runner"
          value={defaultRunner}
          {...invalidBy(about('default_runner'), `${ids}-default-runner-error`)}
          onChange={(event) => onDefaultRunner(event.target.value)}
        >
          {choices.some((choice) => choice.id === defaultRunner) ? null : (
            <option value={defaultRunner}>{defaultRunner} (not configured)</option>
          )}
          {choices.map((choice) => (
            <option key={choice.id} value={choice.id}>
              {choice.label}
            </option>
          ))}
        </select>
        <span className="hint">A task's runner wins over its project's, which wins over this one.</span>
        <ErrorNote error={about('default_runner')} id={`${ids}-default-runner-error`} />
      </label>
      <h3 className="subhead">Runner configs</h3>
      {drafts.length === 0 ? (
        <p className="hint">
          No runner configs of your own: the built-in ones (one per kind) are used. Add one to pin a binary, a
          model or arguments.
        </p>
      ) : null}
      {drafts.map((draft, index) => (
        <RunnerRow
          key={draft.key}
          draft={draft}
          index={index}
          about={about}
          onChange={(change) => update(draft.key, change)}
          onRemove={() => onDrafts(drafts.filter((each) => each.key !== draft.key))}
          rowError={rowError(index)}
        />
      ))}
      <button type="button" className="button-secondary" onClick={() => onDrafts([...drafts, emptyRunner()])}>
        + Add runner config
      </button>
      <ErrorNote
        error={
          error?.isAbout('runner_configs') && !drafts.some((_, i) => error.isAbout(`runner_configs.${i}`))
            ? error
            : null
        }
      />
    </fieldset>
  );
}

function RunnerRow({
  draft,
  index,
  about,
  onChange,
  onRemove,
  rowError,
}: {
  draft: RunnerDraft;
  index: number;
  about: (field: string) => ApiError | null;
  onChange: (change: Partial<RunnerDraft>) => void;
  onRemove: () => void;
  rowError: ApiError | null;
}) {
  const field = (name: string) => about(`runner_configs.${index}.${name}`);
  const ids = useId();
  const noteId = (name: string) => `${ids}-${name}-error`;
  const label = draft.name || draft.id || `${index + 1}`;
  return (
    <div className="runner-row" data-testid="runner-config">
      <label className="field">
        <span>Id</span>
        <input
          name={`runner_configs.${index}.id`}
          value={draft.id}
          required
          placeholder="e.g. claude-fast"
          autoComplete="off"
          {...invalidBy(field('id'), noteId('id'))}
          onChange={(event) => onChange({ id: event.target.value })}
        />
        <span className="hint">lowercase letters, digits, dots, hyphens, underscores</span>
        <ErrorNote error={field('id')} id={noteId('id')} />
      </label>
      <label className="field">
        <span>Name</span>
        <input
          name={`runner_configs.${index}.name`}
          value={draft.name}
          required
          {...invalidBy(field('name'), noteId('name'))}
          onChange={(event) => onChange({ name: event.target.value })}
        />
        <ErrorNote error={field('name')} id={noteId('name')} />
      </label>
      <label className="field">
        <span>Kind</span>
        <select
          name={`runner_configs.${index}.kind`}
          value={draft.kind}
          onChange={(event) => onChange({ kind: event.target.value as RunnerKind })}
        >
          {runnerKinds.map((kind) => (
            <option key={kind} value={kind}>
              {kind}
            </option>
          ))}
        </select>
        <ErrorNote error={field('kind')} id={noteId('kind')} />
      </label>
      <label className="field">
        <span>Binary path</span>
        <input
          name={`runner_configs.${index}.binary_path`}
          value={draft.binaryPath}
          placeholder={draft.kind === 'keel' ? 'not used (in process)' : `${draft.kind} on PATH`}
          {...invalidBy(field('binary_path'), noteId('binary_path'))}
          onChange={(event) => onChange({ binaryPath: event.target.value })}
        />
        <ErrorNote error={field('binary_path')} id={noteId('binary_path')} />
      </label>
      <label className="field">
        <span>Model</span>
        <input
          name={`runner_configs.${index}.model`}
          value={draft.model}
          placeholder="the settings' model"
          {...invalidBy(field('model'), noteId('model'))}
          onChange={(event) => onChange({ model: event.target.value })}
        />
        <ErrorNote error={field('model')} id={noteId('model')} />
      </label>
      <label className="field">
        <span>Extra args (one per line)</span>
        <textarea
          name={`runner_configs.${index}.extra_args`}
          rows={2}
          value={draft.extraArgs}
          onChange={(event) => onChange({ extraArgs: event.target.value })}
        />
        <ErrorNote error={field('extra_args')} id={noteId('extra_args')} />
      </label>
      <label className="field">
        <span>Env (KEY=value per line)</span>
        <textarea
          name={`runner_configs.${index}.env`}
          rows={2}
          value={draft.env}
          onChange={(event) => onChange({ env: event.target.value })}
        />
        <ErrorNote error={field('env')} id={noteId('env')} />
      </label>
      <div className="runner-actions">
        <button
          type="button"
          className="button-quiet"
          onClick={onRemove}
          aria-label={`Remove runner config ${label}`}
        >
          Remove
        </button>
      </div>
      <ErrorNote error={rowError} />
    </div>
  );
}
