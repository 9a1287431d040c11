import type { ProjectTrust } from '../config/index.ts';
import {
  getSkill,
  listSkills,
  type Skill,
  type SkillDetail,
  type SkillList,
  type SkillScope,
  setSkillEnabled,
} from '../skills/index.ts';
import { normaliseWorkdir } from './workdir.ts';

export interface SkillsApiOptions {
  runtimeDir: string;
  /** RUNTIME_SKILL_DIRS. */
  envDirs: readonly string[];
  /** The project a call means when it names none: the runtime's workdir. */
  defaultWorkdir: string | undefined;
  /** RuntimeOptions.trustProjectConfig. */
  trust?: ProjectTrust | undefined;
}

/** Which project a call is about: its `.runtime/skills` and `.runtime/config.json` count. */
export interface SkillQuery {
  workdir?: string | undefined;
}

/** Where `enable` and `disable` write: the global configuration file (default) or the project's. */
export interface SkillChange extends SkillQuery {
  scope?: SkillScope | undefined;
}

/**
 * Skills as every surface sees them: built in, the user's, the project's and custom ones, enabled by the
 * configuration.
 *
 * @example
 * const { skills } = await runtime.skills.list({ workdir: '/repo' });
 * await runtime.skills.disable('git', { scope: 'project', workdir: '/repo' });
 */
export class SkillsApi {
  readonly #options: SkillsApiOptions;

  constructor(options: SkillsApiOptions) {
    this.#options = options;
  }

  async list(query: SkillQuery = {}): Promise<SkillList> {
    return listSkills(this.#options.runtimeDir, await this.#workdir(query), this.#lookup());
  }

  /** The skill with its documentation; SKILL_NOT_FOUND for a name no skill directory provides. */
  async get(name: string, query: SkillQuery = {}): Promise<SkillDetail> {
    return getSkill(this.#options.runtimeDir, await this.#workdir(query), name, this.#lookup());
  }

  /** Enables a skill in the configuration and answers it as it now is in the workdir. */
  async enable(name: string, change: SkillChange = {}): Promise<Skill> {
    return this.#set(name, true, change);
  }

  /** Disables a skill in the configuration and answers it as it now is in the workdir. */
  async disable(name: string, change: SkillChange = {}): Promise<Skill> {
    return this.#set(name, false, change);
  }

  async #set(name: string, enabled: boolean, change: SkillChange): Promise<Skill> {
    return setSkillEnabled(this.#options.runtimeDir, await this.#workdir(change), name, enabled, {
      ...this.#lookup(),
      scope: change.scope ?? 'global',
    });
  }

  #workdir(query: SkillQuery): Promise<string> {
    return normaliseWorkdir(query.workdir ?? this.#options.defaultWorkdir);
  }

  #lookup() {
    return { envDirs: this.#options.envDirs, trust: this.#options.trust };
  }
}
