import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { api } from '../api/client.ts';
import type { ApiError } from '../api/errors.ts';
import type { Skill } from '../api/library-types.ts';
import { Empty, ErrorNote, Loading } from '../components/status.tsx';
import { SkillEditor } from './skills/skill-editor.tsx';

/** The skill library: the list on the left, the chosen skill (or a new one) on the right (`?skill=<id>`). */
export default function SkillsPage() {
  const skills = useQuery<Skill[], ApiError>({ queryKey: ['skills'], queryFn: () => api.skills.list() });
  const [params, setParams] = useSearchParams();
  const selected = params.get('skill');
  const choose = (id: string | null) => setParams(id ? { skill: id } : {});
  return (
    <div className="page">
      <h1>Skills</h1>
      <p className="lede">
        Conventions and know-how in Markdown. A skill linked to a project is copied into each of its tasks (
        <code>.skills/</code>), where every runner can read it.
      </p>
      <div className="two-columns skills-layout">
        <section aria-labelledby="skill-list-title">
          <div className="page-head">
            <h2 id="skill-list-title">Library</h2>
            <div className="spacer" />
            <button
              type="button"
              className="button-secondary"
              onClick={() => choose(null)}
              disabled={selected === null}
            >
              + New skill
            </button>
          </div>
          {skills.isPending ? <Loading what="skills" /> : null}
          <ErrorNote error={skills.error} />
          {skills.data?.length === 0 ? (
            <Empty>No skills yet. Write the first one with the form.</Empty>
          ) : null}
          <ul className="card-list" data-testid="skill-list">
            {skills.data?.map((skill) => (
              <li key={skill.id} className={`card card-link ${skill.id === selected ? 'is-selected' : ''}`}>
                <button
                  type="button"
                  className="card-title button-link"
                  aria-current={skill.id === selected ? 'true' : undefined}
                  onClick={() => choose(skill.id)}
                >
                  {skill.name}
                </button>
                <p className="muted clamp">{skill.description}</p>
                <p className="hint">
                  {skill.project_ids.length === 0
                    ? 'not linked'
                    : `linked to ${skill.project_ids.length} project${skill.project_ids.length === 1 ? '' : 's'}`}
                </p>
              </li>
            ))}
          </ul>
        </section>
        <section aria-labelledby="skill-editor-title">
          {/* A new key per skill: the form starts from that skill's stored values. */}
          <SkillEditor key={selected ?? 'new'} skillId={selected} onChosen={choose} />
        </section>
      </div>
    </div>
  );
}
