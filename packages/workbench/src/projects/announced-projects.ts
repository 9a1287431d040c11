import type { ProjectSnapshot } from '@keel/protocol/workbench';
import type { ProjectRecords } from '../store/index.ts';

/** A project and its knowledge layers as `project:{id}` carries them. */
export async function projectSnapshot(records: ProjectRecords, projectId: string): Promise<ProjectSnapshot> {
  const [project, knowledge] = await Promise.all([records.get(projectId), records.knowledge(projectId)]);
  return {
    id: project.id,
    status: project.status,
    error: project.error,
    knowledge: knowledge.map((layer) => ({
      repository: layer.repository,
      layer: layer.layer,
      status: layer.status,
      error: layer.error,
    })),
    updated_at: project.updated_at,
  };
}

// The writes after which a project's snapshot may have changed.
const changing = new Set<keyof ProjectRecords>(['create', 'update', 'setKnowledge', 'clearKnowledge']);

/**
 * `records` whose writes of a project or of its knowledge are told to `onChange` with the project's new
 * snapshot (the WebSocket's `project:{id}`), after the write and without delaying it.
 */
export function announcedProjects(
  records: ProjectRecords,
  onChange: (snapshot: ProjectSnapshot) => void,
): ProjectRecords {
  const announce = (projectId: string) => {
    projectSnapshot(records, projectId).then(onChange, () => {
      // Gone meanwhile (deleted): nothing to tell.
    });
  };
  return new Proxy(records, {
    get(target, key: keyof ProjectRecords) {
      const value = target[key];
      if (typeof value !== 'function') return value;
      const method = (value as (...args: unknown[]) => Promise<unknown>).bind(target);
      if (!changing.has(key)) return method;
      return async (...args: unknown[]) => {
        const result = await method(...args);
        const projectId = key === 'create' ? (result as { id: string }).id : (args[0] as string);
        announce(projectId);
        return result;
      };
    },
  });
}
