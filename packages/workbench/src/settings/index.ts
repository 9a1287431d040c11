export { settingsRoutes } from './routes.ts';
export {
  defaultSettings,
  mcpServerSchema,
  runnerConfigSchema,
  type SettingsUpdate,
  type SettingsView,
  type StoredSettings,
  settingsUpdateSchema,
} from './schema.ts';
export { runnerConfigById, SettingsService } from './settings-service.ts';
