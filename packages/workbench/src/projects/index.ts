export { announcedProjects, projectSnapshot } from './announced-projects.ts';
export { constitutionMarkdown, conventionsSection, projectMarkdown } from './knowledge-docs.ts';
export { KnowledgeService } from './knowledge-service.ts';
export { ProjectService } from './project-service.ts';
export { RepositoryTrust } from './repository-trust.ts';
export { projectRoutes } from './routes.ts';
export {
  type CheckSetting,
  type KnowledgeLayer,
  type KnowledgeRecord,
  knowledgeLayers,
  type Project,
  type ProjectStatus,
  type Repository,
} from './types.ts';
