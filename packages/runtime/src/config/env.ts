import { homedir } from 'node:os';
import { join } from 'node:path';

/** Every environment variable the runtime reads, read here and nowhere else. */
export interface RuntimeEnv {
  /** RUNTIME_MODEL_API_KEY: the model key; wins over every other source. */
  modelApiKey?: string;
  /** RUNTIME_AUTH_API_KEY: the web server's bearer token. */
  authApiKey?: string;
  /** RUNTIME_ENABLE_THINKING: "true" or "1" turns thinking on. */
  enableThinking?: boolean;
  /** RUNTIME_THINKING_BUDGET: maximum thinking tokens. */
  thinkingBudget?: number;
  /** RUNTIME_SKILL_DIRS: extra skill directories, separated by the path delimiter. */
  skillDirs: string[];
  /** RUNTIME_HOME: the user's runtime directory (default ~/.runtime). */
  home: string;
  /** RUNTIME_MODEL and RUNTIME_MODEL_BASE_URL: defaults below the config files. */
  model?: string;
  modelBaseUrl?: string;
  /** RUNTIME_MODEL_PROFILE: the model_profile setting below the config files (checked where used). */
  modelProfile?: string;
  /** BRAVE_SEARCH_API_KEY: the key websearch sends to the Brave Search API (config web.search.provider). */
  braveSearchApiKey?: string;
}

export function readEnv(env: NodeJS.ProcessEnv = process.env): RuntimeEnv {
  const budget = env.RUNTIME_THINKING_BUDGET ? Number(env.RUNTIME_THINKING_BUDGET) : undefined;
  const thinking = env.RUNTIME_ENABLE_THINKING?.toLowerCase();
  return {
    ...(env.RUNTIME_MODEL_API_KEY ? { modelApiKey: env.RUNTIME_MODEL_API_KEY } : {}),
    ...(env.RUNTIME_AUTH_API_KEY ? { authApiKey: env.RUNTIME_AUTH_API_KEY } : {}),
    ...(thinking ? { enableThinking: thinking === 'true' || thinking === '1' } : {}),
    ...(budget !== undefined && Number.isInteger(budget) && budget > 0 ? { thinkingBudget: budget } : {}),
    skillDirs: (env.RUNTIME_SKILL_DIRS ?? '').split(process.platform === 'win32' ? ';' : ':').filter(Boolean),
    home: env.RUNTIME_HOME || join(homedir(), '.runtime'),
    ...(env.RUNTIME_MODEL ? { model: env.RUNTIME_MODEL } : {}),
    ...(env.RUNTIME_MODEL_BASE_URL ? { modelBaseUrl: env.RUNTIME_MODEL_BASE_URL } : {}),
    ...(env.RUNTIME_MODEL_PROFILE?.trim() ? { modelProfile: env.RUNTIME_MODEL_PROFILE.trim() } : {}),
    ...(env.BRAVE_SEARCH_API_KEY ? { braveSearchApiKey: env.BRAVE_SEARCH_API_KEY } : {}),
  };
}
