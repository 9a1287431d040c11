export { skillRoutes } from './routes.ts';
export { type Skill, SkillService, type SkillWithContent } from './skill-service.ts';
