/** The `skills` settings of a configuration that decide which skills are enabled. */
export interface SkillSettings {
  enabled?: string[] | undefined;
  disabled?: string[] | undefined;
}

/** Enabled unless listed in `disabled`; when `enabled` is set, only the skills it lists. */
export function isSkillEnabled(name: string, settings: SkillSettings): boolean {
  if (settings.disabled?.includes(name)) return false;
  return settings.enabled === undefined || settings.enabled.includes(name);
}

/**
 * The changes to one configuration file's `skills` settings that enable or disable `name` there.
 * `own` is that file's settings; `inherited` what lies under it (the global file's, for the project file;
 * nothing for the global one). A list the file does not have yet starts as a copy of the inherited list,
 * because a project file's list replaces the global file's list as a whole: writing `disabled: [name]`
 * alone would quietly re-enable every skill the global file disables.
 */
export function toggledSettings(
  own: SkillSettings,
  inherited: SkillSettings,
  name: string,
  enabled: boolean,
): SkillSettings {
  const disabled = own.disabled ?? inherited.disabled ?? [];
  const allowList = own.enabled ?? inherited.enabled;
  const changes: SkillSettings = {};
  if (!enabled) {
    if (!disabled.includes(name)) changes.disabled = [...disabled, name];
    return changes;
  }
  if (disabled.includes(name)) changes.disabled = disabled.filter((each) => each !== name);
  if (allowList !== undefined && !allowList.includes(name)) changes.enabled = [...allowList, name];
  return changes;
}
