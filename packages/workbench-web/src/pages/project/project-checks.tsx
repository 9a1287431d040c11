import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { api } from '../../api/client.ts';
import type { ApiError } from '../../api/errors.ts';
import type { CheckInput, CheckSetting, Project, ProjectChecksUpdate } from '../../api/types.ts';
import { useFieldErrors } from '../../components/field-errors.ts';
import { ErrorNote, invalidBy } from '../../components/status.tsx';

/** One check per line, `name: command` (a line without a name is a `check`). */
function checksToText(checks: CheckSetting[] | undefined): string {
  return (checks ?? []).map((check) => `${check.name}: ${check.command}`).join('\n');
}

function textToChecks(text: string): CheckInput[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const match = /^([A-Za-z][\w-]{0,39}):\s+(.+)$/.exec(line);
      return match
        ? { name: match[1] ?? 'check', command: match[2] ?? '' }
        : { name: 'check', command: line };
    });
}

/** What the form edits, per repository by name: checks as text, the setup and preview command lines. */
interface Commands {
  checks: Record<string, string>;
  setup: Record<string, string>;
  preview: Record<string, string>;
  repairs: string;
  runSetup: boolean;
}

function commandsOf(project: Project): Commands {
  const each = (text: (repository: Project['repositories'][number]) => string) =>
    Object.fromEntries(project.repositories.map((repository) => [repository.name, text(repository)]));
  return {
    checks: each((repository) => checksToText(repository.checks)),
    setup: each((repository) => repository.setup?.command ?? ''),
    preview: each((repository) => repository.preview?.command ?? ''),
    repairs: String(project.repair_turns ?? 2),
    runSetup: project.run_setup,
  };
}

/**
 * The change to send: every repository's checks and the repair bound (as always), and only the setup and
 * preview commands and `run_setup` that changed (an empty command removes it; a setup keeps its time limit).
 */
function patchOf(project: Project, edited: Commands): ProjectChecksUpdate {
  const stored = commandsOf(project);
  const patch: ProjectChecksUpdate = {
    checks: Object.fromEntries(
      project.repositories.map((repository) => [
        repository.name,
        textToChecks(edited.checks[repository.name] ?? ''),
      ]),
    ),
    repair_turns: Number(edited.repairs),
  };
  for (const repository of project.repositories) {
    const { name } = repository;
    const setup = (edited.setup[name] ?? '').trim();
    if (setup !== stored.setup[name]) {
      const limit = repository.setup ? { timeout_ms: repository.setup.timeout_ms } : {};
      patch.setup = { ...patch.setup, [name]: setup ? { command: setup, ...limit } : null };
    }
    const preview = (edited.preview[name] ?? '').trim();
    if (preview !== stored.preview[name]) {
      patch.preview = { ...patch.preview, [name]: preview ? { command: preview } : null };
    }
  }
  if (edited.runSetup !== project.run_setup) patch.run_setup = edited.runSetup;
  return patch;
}

/**
 * Each repository's commands, found from its files when the project was created: its checks (run after
 * every todo that changed it), its setup (installs its dependencies in each task's workspace, when the
 * project runs setup) and its preview (its dev server, started from a task); how many repair turns a todo
 * gets when its checks fail. Saved on their own: they do not send the repositories again, so the
 * knowledge stays.
 */
export function ProjectChecks({ project }: { project: Project }) {
  const queryClient = useQueryClient();
  const ids = useId();
  const stored = JSON.stringify(commandsOf(project));
  const [edited, setEdited] = useState<Commands>(() => commandsOf(project));
  useEffect(() => setEdited(JSON.parse(stored) as Commands), [stored]);
  const [saved, setSaved] = useState(false);
  const save = useMutation<Project, ApiError, void>({
    mutationFn: () => api.projects.update(project.id, patchOf(project, edited)),
    onSuccess: (next) => {
      queryClient.setQueryData(['project', project.id], next);
      setSaved(true);
    },
  });
  const { about, onChange: clearOnEdit } = useFieldErrors(save.error);
  function submit(event: FormEvent) {
    event.preventDefault();
    setSaved(false);
    save.mutate();
  }
  const edit = (part: 'checks' | 'setup' | 'preview', name: string, value: string) =>
    setEdited((current) => ({ ...current, [part]: { ...current[part], [name]: value } }));
  const placed = ['checks', 'setup', 'preview', 'repair_turns', 'run_setup'];
  const general = save.error && !placed.some((field) => save.error?.isAbout(field)) ? save.error : null;
  return (
    <section className="card project-checks" aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`}>Checks, setup and preview</h2>
      <p className="hint">
        After each todo, the checks of every repository it changed run in the sandbox; a failure goes back to
        the todo's agent, for a few repair turns, and then fails the todo. One check per line, as{' '}
        <code>name: command</code>. Each command was found from the repository's files when the project was
        created; an empty one is none.
      </p>
      <form onChange={clearOnEdit} className="form" onSubmit={submit} aria-label="Checks">
        {project.repositories.map((repository) => {
          const { name } = repository;
          const field = (part: string) => ({
            name: `${part}.${name}`,
            ...invalidBy(about(`${part}.${name}`), `${ids}-${part}-${name}-error`),
          });
          const note = (part: string) => (
            <ErrorNote error={about(`${part}.${name}`)} id={`${ids}-${part}-${name}-error`} />
          );
          return (
            <fieldset key={name}>
              <legend>
                <code>{name}</code>
              </legend>
              <label className="field">
                <span>Checks</span>
                <textarea
                  rows={3}
                  value={edited.checks[name] ?? ''}
                  placeholder="No checks: e.g. test: npm test"
                  onChange={(event) => edit('checks', name, event.target.value)}
                  {...field('checks')}
                />
                {note('checks')}
              </label>
              <div className="grid-2">
                <label className="field">
                  <span>Setup command</span>
                  <input
                    value={edited.setup[name] ?? ''}
                    placeholder="No setup: e.g. npm ci"
                    spellCheck={false}
                    onChange={(event) => edit('setup', name, event.target.value)}
                    {...field('setup')}
                  />
                  <span className="hint">
                    Installs its dependencies in each task's workspace during initialisation
                    {edited.runSetup ? '.' : ', once "Run setup" below is on.'}
                  </span>
                  {note('setup')}
                </label>
                <label className="field">
                  <span>Preview command</span>
                  <input
                    value={edited.preview[name] ?? ''}
                    placeholder="No preview: e.g. npm run dev"
                    spellCheck={false}
                    onChange={(event) => edit('preview', name, event.target.value)}
                    {...field('preview')}
                  />
                  <span className="hint">
                    Its dev server, started from a task's page in its workspace: it should serve on{' '}
                    <code>$PORT</code> (<code>$HOST</code> is 127.0.0.1).
                  </span>
                  {note('preview')}
                </label>
              </div>
            </fieldset>
          );
        })}
        <fieldset>
          <div className="field">
            <label className="inline">
              <input
                type="checkbox"
                name="run_setup"
                checked={edited.runSetup}
                onChange={(event) => setEdited((current) => ({ ...current, runSetup: event.target.checked }))}
                {...invalidBy(about('run_setup'), `${ids}-run-setup-error`)}
              />{' '}
              Run setup when a task is initialised
            </label>
            <span className="hint warn" role="note">
              Runs each repository's setup command (e.g. <code>npm ci</code>) when a task is initialised, in
              the sandbox with the network on. The repository's install scripts run as if you ran the install
              yourself: turn this on only for repositories you trust.
            </span>
            <ErrorNote error={about('run_setup')} id={`${ids}-run-setup-error`} />
          </div>
          <label className="field">
            <span>Repair turns</span>
            <input
              name="repair_turns"
              type="number"
              min={0}
              max={5}
              value={edited.repairs}
              onChange={(event) => setEdited((current) => ({ ...current, repairs: event.target.value }))}
              {...invalidBy(about('repair_turns'), `${ids}-repairs-error`)}
            />
            <ErrorNote error={about('repair_turns')} id={`${ids}-repairs-error`} />
          </label>
        </fieldset>
        <div className="form-actions">
          <button type="submit" className="button-primary" disabled={save.isPending}>
            {save.isPending ? 'Saving…' : 'Save checks, setup and preview'}
          </button>
          {saved && !save.isPending ? (
            <span className="saved" role="status">
              Saved.
            </span>
          ) : null}
          <ErrorNote error={general} />
        </div>
      </form>
    </section>
  );
}
