import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { api } from '../../api/client.ts';
import type { ApiError } from '../../api/errors.ts';
import type { CheckInput, CheckSetting, Project } from '../../api/types.ts';
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

/**
 * Each repository's checks (found from its files when the project was created), run after every todo that
 * changed it, and how many repair turns a todo gets when they fail. Saved on their own: they do not send the
 * repositories again, so the knowledge stays.
 */
export function ProjectChecks({ project }: { project: Project }) {
  const queryClient = useQueryClient();
  const ids = useId();
  const stored = JSON.stringify([
    project.repositories.map((repository) => [repository.name, checksToText(repository.checks)]),
    project.repair_turns ?? 2,
  ]);
  const [texts, setTexts] = useState<Record<string, string>>({});
  const [repairs, setRepairs] = useState(String(project.repair_turns ?? 2));
  useEffect(() => {
    const [lines, turns] = JSON.parse(stored) as [[string, string][], number];
    setTexts(Object.fromEntries(lines));
    setRepairs(String(turns));
  }, [stored]);
  const [saved, setSaved] = useState(false);
  const save = useMutation<Project, ApiError, void>({
    mutationFn: () =>
      api.projects.update(project.id, {
        checks: Object.fromEntries(
          project.repositories.map((repository) => [
            repository.name,
            textToChecks(texts[repository.name] ?? ''),
          ]),
        ),
        repair_turns: Number(repairs),
      }),
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
  const general =
    save.error && !['checks', 'repair_turns'].some((field) => save.error?.isAbout(field)) ? save.error : null;
  return (
    <section className="card project-checks" aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`}>Checks</h2>
      <p className="hint">
        After each todo, the checks of every repository it changed run in the sandbox; a failure goes back to
        the todo's agent, for a few repair turns, and then fails the todo. One check per line, as{' '}
        <code>name: command</code>.
      </p>
      <form onChange={clearOnEdit} className="form" onSubmit={submit} aria-label="Checks">
        {project.repositories.map((repository) => (
          <label className="field" key={repository.name}>
            <span>
              <code>{repository.name}</code>
            </span>
            <textarea
              name={`checks.${repository.name}`}
              rows={3}
              value={texts[repository.name] ?? ''}
              placeholder="No checks: e.g. test: npm test"
              onChange={(event) =>
                setTexts((current) => ({ ...current, [repository.name]: event.target.value }))
              }
              {...invalidBy(about(`checks.${repository.name}`), `${ids}-${repository.name}-error`)}
            />
            <ErrorNote error={about(`checks.${repository.name}`)} id={`${ids}-${repository.name}-error`} />
          </label>
        ))}
        <label className="field">
          <span>Repair turns</span>
          <input
            name="repair_turns"
            type="number"
            min={0}
            max={5}
            value={repairs}
            onChange={(event) => setRepairs(event.target.value)}
            {...invalidBy(about('repair_turns'), `${ids}-repairs-error`)}
          />
          <ErrorNote error={about('repair_turns')} id={`${ids}-repairs-error`} />
        </label>
        <div className="form-actions">
          <button type="submit" className="button-primary" disabled={save.isPending}>
            {save.isPending ? 'Saving…' : 'Save checks'}
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
