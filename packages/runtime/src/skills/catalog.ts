import {
  configFileAt,
  globalConfigPath,
  loadConfig,
  type ProjectTrust,
  projectConfigPath,
  type RuntimeConfig,
  readConfigFile,
} from '../config/index.ts';
import { InvalidParamsError, KeelError, SkillNotFoundError } from '../errors/index.ts';
import { type Discovery, discoverSkills, type FoundSkill } from './discover.ts';
import { isSkillEnabled, type SkillSettings, toggledSettings } from './enablement.ts';
import { skillSearchDirs } from './search-dirs.ts';
import type { Skill, SkillDetail, SkillList, SkillScope, SkillWarning } from './skill.ts';
import { readSkillFile } from './skill-file.ts';

export interface SkillLookupOptions {
  /** Extra skill directories from the environment (`RUNTIME_SKILL_DIRS`), above every other source. */
  envDirs?: readonly string[] | undefined;
  /** Whether the project file's security-relevant keys apply (RuntimeOptions.trustProjectConfig). */
  trust?: ProjectTrust | undefined;
}

/**
 * Every skill visible from `workdir` (built in, the user's, the project's, custom directories), sorted by
 * name, each enabled or not by the configuration (project over global). Invalid SKILL.md files and
 * settings that name no skill are reported in `warnings`.
 *
 * @example
 * const { skills, warnings } = await listSkills(runtime.runtimeDir, '/repo');
 */
export async function listSkills(
  runtimeDir: string,
  workdir: string,
  options: SkillLookupOptions = {},
): Promise<SkillList> {
  const config = loadConfig(runtimeDir, workdir, options.trust);
  const discovery = await discover(runtimeDir, workdir, config, options);
  const settings = config.skills ?? {};
  return {
    skills: sortedByName(discovery).map((found) => toSkill(found, settings)),
    warnings: [...discovery.warnings, ...unknownNameWarnings(settings, discovery)],
  };
}

/** One skill with its documentation (the SKILL.md body); SKILL_NOT_FOUND when no directory has it. */
export async function getSkill(
  runtimeDir: string,
  workdir: string,
  name: string,
  options: SkillLookupOptions = {},
): Promise<SkillDetail> {
  const config = loadConfig(runtimeDir, workdir, options.trust);
  const found = findSkill(await discover(runtimeDir, workdir, config, options), name);
  return {
    ...toSkill(found, config.skills ?? {}),
    documentation: await readDocumentation(found),
    path: found.dir,
  };
}

/**
 * Enables or disables a skill in the global or the project configuration file, written atomically, and
 * answers the skill as it now is in `workdir`: a project file's setting can still override a global one.
 */
export async function setSkillEnabled(
  runtimeDir: string,
  workdir: string,
  name: string,
  enabled: boolean,
  options: SkillLookupOptions & { scope: SkillScope },
): Promise<Skill> {
  findSkill(
    await discover(runtimeDir, workdir, loadConfig(runtimeDir, workdir, options.trust), options),
    name,
  );
  const path = options.scope === 'project' ? projectConfigPath(workdir) : globalConfigPath(runtimeDir);
  await configFileAt(path).update((current) => {
    const own = (current.skills ?? {}) as SkillSettings & Record<string, unknown>;
    const inherited =
      options.scope === 'project' ? (readConfigFile(globalConfigPath(runtimeDir)).skills ?? {}) : {};
    const changes = toggledSettings(own, inherited, name, enabled);
    return Object.keys(changes).length ? { ...current, skills: { ...own, ...changes } } : current;
  });
  const config = loadConfig(runtimeDir, workdir, options.trust);
  return toSkill(findSkill(await discover(runtimeDir, workdir, config, options), name), config.skills ?? {});
}

/**
 * The skills one run may use: the enabled ones, narrowed to `requested` (the run request's `skills`)
 * when given. A requested name that no directory provides, or that the configuration disables, is an
 * INVALID_PARAMS error naming it.
 */
export async function skillsForRun(
  runtimeDir: string,
  workdir: string,
  config: RuntimeConfig,
  requested: readonly string[] | undefined,
  options: SkillLookupOptions = {},
): Promise<FoundSkill[]> {
  const discovery = await discover(runtimeDir, workdir, config, options);
  const settings = config.skills ?? {};
  const enabled = sortedByName(discovery).filter((found) => isSkillEnabled(found.name, settings));
  if (requested === undefined) return enabled;
  const unknown = requested.filter((name) => !discovery.skills.has(name));
  if (unknown.length > 0) {
    const available = [...discovery.skills.keys()].sort();
    throw new InvalidParamsError(
      `Unknown skill${unknown.length > 1 ? 's' : ''} in skills: ${unknown.join(', ')}. ` +
        `Available: ${available.join(', ') || 'none'}.`,
      { field: 'skills', unknown, available },
    );
  }
  const disabled = requested.filter((name) => !isSkillEnabled(name, settings));
  if (disabled.length > 0) {
    throw new InvalidParamsError(
      `Disabled skill${disabled.length > 1 ? 's' : ''} in skills: ${disabled.join(', ')}. ` +
        `Enable ${disabled.length > 1 ? 'them' : 'it'} first (keel skills enable <name>) or leave ${disabled.length > 1 ? 'them' : 'it'} out.`,
      { field: 'skills', disabled },
    );
  }
  return enabled.filter((found) => requested.includes(found.name));
}

/** The documentation of a found skill, read now: the body is loaded only when it is asked for. */
export async function readDocumentation(found: FoundSkill): Promise<string> {
  const result = await readSkillFile(found.file);
  if (!result.ok) {
    throw new KeelError('SKILL_NOT_FOUND', `Skill '${found.name}' is no longer valid: ${result.problem}.`, {
      name: found.name,
      path: found.file,
    });
  }
  return result.manifest.body;
}

function discover(
  runtimeDir: string,
  workdir: string,
  config: RuntimeConfig,
  options: SkillLookupOptions,
): Promise<Discovery> {
  return discoverSkills(
    skillSearchDirs({
      runtimeDir,
      workdir,
      customDirs: config.skills?.custom_dirs,
      envDirs: options.envDirs,
    }),
  );
}

function findSkill(discovery: Discovery, name: string): FoundSkill {
  const found = discovery.skills.get(name);
  if (found === undefined) throw new SkillNotFoundError(name, [...discovery.skills.keys()].sort());
  return found;
}

// Skill names are lowercase letters and hyphens (skill-file.ts), which every collation orders as their code
// units do: comparing those spares each run starting ICU for `localeCompare` (issue #44).
function sortedByName(discovery: Discovery): FoundSkill[] {
  return [...discovery.skills.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function toSkill(found: FoundSkill, settings: SkillSettings): Skill {
  return {
    name: found.name,
    description: found.description,
    enabled: isSkillEnabled(found.name, settings),
    source: found.source,
  };
}

// A typo in `skills.enabled` would silently switch every skill off: say so.
function unknownNameWarnings(settings: SkillSettings, discovery: Discovery): SkillWarning[] {
  return (['enabled', 'disabled'] as const).flatMap((key) => {
    const unknown = (settings[key] ?? []).filter((name) => !discovery.skills.has(name));
    return unknown.length
      ? [{ path: `skills.${key}`, message: `Names no skill that exists: ${unknown.join(', ')}.` }]
      : [];
  });
}
