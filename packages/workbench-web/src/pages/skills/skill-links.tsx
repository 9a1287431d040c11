import { useMutation, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api } from '../../api/client.ts';
import type { ApiError } from '../../api/errors.ts';
import type { SkillWithContent } from '../../api/library-types.ts';
import type { Project } from '../../api/types.ts';
import { Empty, ErrorNote, Loading } from '../../components/status.tsx';

/** Which projects get the skill: one checkbox per project, each change saved at once. */
export function SkillLinks({
  skill,
  onChange,
}: {
  skill: SkillWithContent;
  onChange: (next: SkillWithContent) => void;
}) {
  const projects = useQuery<Project[], ApiError>({ queryKey: ['projects'], queryFn: api.projects.list });
  const link = useMutation<SkillWithContent, ApiError, { projectId: string; linked: boolean }>({
    mutationFn: ({ projectId, linked }) => api.skills.link(skill.id, projectId, linked),
    onSuccess: onChange,
  });
  return (
    <section className="card skill-links" aria-labelledby="skill-links-title">
      <h3 id="skill-links-title" className="skill-links-title">
        Linked projects
      </h3>
      <p className="hint">New tasks of a linked project get this skill in their work directory.</p>
      {projects.isPending ? <Loading what="projects" /> : null}
      <ErrorNote error={projects.error} />
      {projects.data?.length === 0 ? (
        <Empty>
          No projects to link yet. <Link to="/projects">Create one</Link>.
        </Empty>
      ) : null}
      <ul className="link-list">
        {projects.data?.map((project) => {
          const linked = skill.project_ids.includes(project.id);
          const busy = link.isPending && link.variables?.projectId === project.id;
          return (
            <li key={project.id} className="link-item">
              <label className="inline">
                <input
                  type="checkbox"
                  checked={busy ? !linked : linked}
                  disabled={link.isPending}
                  onChange={(event) => link.mutate({ projectId: project.id, linked: event.target.checked })}
                />{' '}
                {project.name}
              </label>
              <Link to={`/projects/${project.id}`} className="hint">
                open
              </Link>
            </li>
          );
        })}
      </ul>
      <ErrorNote error={link.error} />
    </section>
  );
}
