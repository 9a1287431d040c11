import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { api } from '../../api/client.ts';
import type { ApiError } from '../../api/errors.ts';
import { type SkillWithContent, skillNameRule } from '../../api/library-types.ts';
import { ConfirmButton } from '../../components/confirm-button.tsx';
import { useFieldErrors } from '../../components/field-errors.ts';
import { Markdown } from '../../components/lazy.tsx';
import { ErrorNote, invalidBy, Loading } from '../../components/status.tsx';
import { SkillLinks } from './skill-links.tsx';

/** Creates a skill (skillId null) or edits one: name (fixed once created), description, Markdown content. */
export function SkillEditor({
  skillId,
  onChosen,
}: {
  skillId: string | null;
  onChosen: (id: string | null) => void;
}) {
  const skill = useQuery<SkillWithContent, ApiError>({
    queryKey: ['skill', skillId],
    queryFn: () => api.skills.get(skillId ?? ''),
    enabled: skillId !== null,
  });
  if (skillId === null) return <SkillForm skill={null} onChosen={onChosen} />;
  if (skill.isPending) return <Loading what="skill" />;
  if (skill.error) return <ErrorNote error={skill.error} />;
  return <SkillForm skill={skill.data} onChosen={onChosen} />;
}

function SkillForm({
  skill,
  onChosen,
}: {
  skill: SkillWithContent | null;
  onChosen: (id: string | null) => void;
}) {
  const queryClient = useQueryClient();
  const ids = useId();
  const [name, setName] = useState(skill?.name ?? '');
  const [description, setDescription] = useState(skill?.description ?? '');
  const [content, setContent] = useState(skill?.content ?? '');
  const [preview, setPreview] = useState(false);
  const [saved, setSaved] = useState(false);

  // After a save the service's answer is the truth.
  useEffect(() => {
    if (!skill) return;
    setDescription(skill.description);
    setContent(skill.content);
  }, [skill]);

  const refresh = (next: SkillWithContent) => {
    queryClient.setQueryData(['skill', next.id], next);
    void queryClient.invalidateQueries({ queryKey: ['skills'] });
  };
  const save = useMutation<SkillWithContent, ApiError, void>({
    mutationFn: () =>
      skill
        ? api.skills.update(skill.id, { description: description.trim(), content })
        : api.skills.create({ name: name.trim(), description: description.trim(), content }),
    onSuccess: (next) => {
      refresh(next);
      setSaved(true);
      if (!skill) onChosen(next.id);
    },
  });
  const remove = useMutation<void, ApiError, void>({
    mutationFn: () => api.skills.remove(skill?.id ?? ''),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['skills'] });
      onChosen(null);
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    setSaved(false);
    save.mutate();
  }

  const error = save.error;
  // Each field's part of the error, cleared once the field is edited.
  const { about, onChange: clearOnEdit } = useFieldErrors(error);
  const general =
    error && !['name', 'description', 'content'].some((field) => error.isAbout(field)) ? error : null;

  return (
    <>
      <div className="page-head">
        <h2 id="skill-editor-title">{skill ? skill.name : 'New skill'}</h2>
        <div className="spacer" />
        {skill ? (
          <ConfirmButton
            label="Delete skill"
            question={`Delete ${skill.name}? Tasks created later will not get it.`}
            confirm="Delete"
            pending={remove.isPending}
            onConfirm={() => remove.mutate()}
          />
        ) : null}
      </div>
      <ErrorNote error={remove.error} />
      <form
        onChange={clearOnEdit}
        className="card form"
        onSubmit={submit}
        aria-label={skill ? `Edit skill ${skill.name}` : 'New skill'}
      >
        <div className="field">
          <label htmlFor={`${ids}-name`}>Name</label>
          <input
            id={`${ids}-name`}
            name="name"
            value={name}
            required
            disabled={skill !== null}
            autoComplete="off"
            placeholder="code-review"
            aria-describedby={`${ids}-name-hint`}
            {...invalidBy(about('name'), `${ids}-name-error`)}
            onChange={(event) => setName(event.target.value)}
          />
          <span className="hint" id={`${ids}-name-hint`}>
            {skill ? 'The name is the skill’s folder; it cannot change.' : `Use ${skillNameRule}.`}
          </span>
          <ErrorNote error={about('name')} id={`${ids}-name-error`} />
        </div>
        <label className="field">
          <span>Description</span>
          <input
            name="description"
            value={description}
            required
            maxLength={1024}
            placeholder="When to use it, in one line: the AI picks skills by it."
            {...invalidBy(about('description'), `${ids}-description-error`)}
            onChange={(event) => setDescription(event.target.value)}
          />
          <ErrorNote error={about('description')} id={`${ids}-description-error`} />
        </label>
        <div className="field">
          <div className="tabs" role="tablist" aria-label="Content">
            <span className="tabs-title">Content (Markdown)</span>
            <button
              type="button"
              role="tab"
              aria-selected={!preview}
              className={!preview ? 'tab is-active' : 'tab'}
              onClick={() => setPreview(false)}
            >
              Write
            </button>
            <button
              type="button"
              role="tab"
              aria-selected={preview}
              className={preview ? 'tab is-active' : 'tab'}
              onClick={() => setPreview(true)}
            >
              Preview
            </button>
          </div>
          {preview ? (
            <div className="skill-preview" data-testid="skill-preview">
              {content.trim() ? (
                <Markdown>{content}</Markdown>
              ) : (
                <span className="hint">Nothing to preview.</span>
              )}
            </div>
          ) : (
            <textarea
              name="content"
              aria-label="Content (Markdown)"
              rows={14}
              className="mono"
              value={content}
              placeholder={'# Code review\n\n- Check the tests first.\n- …'}
              {...invalidBy(about('content'), `${ids}-content-error`)}
              onChange={(event) => setContent(event.target.value)}
              onKeyDown={(event) => {
                // Ctrl/Cmd+Enter saves from the content box, where Enter is a new line.
                if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) submit(event);
              }}
            />
          )}
          <ErrorNote error={about('content')} id={`${ids}-content-error`} />
        </div>
        <div className="form-actions">
          <button type="submit" className="button-primary" disabled={save.isPending}>
            {save.isPending ? 'Saving…' : skill ? 'Save skill' : 'Create skill'}
          </button>
          {saved && !save.isPending && skill ? (
            <span className="saved" role="status">
              Saved.
            </span>
          ) : null}
          <span className="hint">Ctrl+Enter in the content saves.</span>
          <ErrorNote error={general} />
        </div>
      </form>
      {skill ? <SkillLinks skill={skill} onChange={refresh} /> : null}
    </>
  );
}
