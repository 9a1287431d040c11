import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { createRuntime, KeelError } from '../../src/index.ts';
import { getSkill, listSkills, setSkillEnabled, skillsForRun } from '../../src/skills/index.ts';
import { skillPlaces, writeSkill } from './skill-dirs.ts';

const enabledNames = async (runtimeDir: string, workdir: string) =>
  (await listSkills(runtimeDir, workdir)).skills.filter((skill) => skill.enabled).map((skill) => skill.name);

const readJson = async (path: string) => JSON.parse(await readFile(path, 'utf8'));

describe('which skills are enabled', () => {
  test('all are, except those in skills.disabled; with skills.enabled, only those; the project file wins', async () => {
    await using places = await skillPlaces();
    expect(await enabledNames(places.runtimeDir, places.workdir)).toEqual([
      'containers',
      'git',
      'package-managers',
      'python',
      'testing',
    ]);

    await places.config('global', { skills: { disabled: ['git'] } });
    expect(await enabledNames(places.runtimeDir, places.workdir)).toEqual([
      'containers',
      'package-managers',
      'python',
      'testing',
    ]);

    await places.config('global', { skills: { enabled: ['git', 'testing'], disabled: ['testing'] } });
    expect(await enabledNames(places.runtimeDir, places.workdir)).toEqual(['git']);

    // The project file's list replaces the global one (configuration merges one level deep).
    await places.config('project', { skills: { enabled: ['python'] } });
    expect(await enabledNames(places.runtimeDir, places.workdir)).toEqual(['python']);
  });

  test('names in the settings that match no skill are reported, since a typo would switch skills off', async () => {
    await using places = await skillPlaces();
    await places.config('global', { skills: { enabled: ['code-reveiw'], disabled: ['nope'] } });
    const { skills, warnings } = await listSkills(places.runtimeDir, places.workdir);
    expect(skills.every((skill) => !skill.enabled)).toBe(true);
    expect(warnings).toEqual([
      { path: 'skills.enabled', message: 'Names no skill that exists: code-reveiw.' },
      { path: 'skills.disabled', message: 'Names no skill that exists: nope.' },
    ]);
  });

  test("a run request's skills narrow the enabled ones; unknown or disabled names are INVALID_PARAMS naming them", async () => {
    await using places = await skillPlaces();
    const config = { skills: { disabled: ['git'] } };
    const names = async (requested?: string[]) =>
      (await skillsForRun(places.runtimeDir, places.workdir, config, requested)).map((skill) => skill.name);
    expect(await names()).toEqual(['containers', 'package-managers', 'python', 'testing']);
    expect(await names(['testing'])).toEqual(['testing']);
    expect(await names([])).toEqual([]);

    const unknown = await names(['testing', 'no-such', 'other']).catch((error: unknown) => error);
    expect(KeelError.is(unknown) && unknown.code).toBe('INVALID_PARAMS');
    expect((unknown as Error).message).toBe(
      'Unknown skills in skills: no-such, other. Available: containers, git, package-managers, python, testing.',
    );
    const disabled = await names(['git']).catch((error: unknown) => error);
    expect(KeelError.is(disabled) && disabled.code).toBe('INVALID_PARAMS');
    expect((disabled as Error).message).toMatch(/^Disabled skill in skills: git\. Enable it first/);
  });
});

describe('getSkill', () => {
  test('answers the skill with its documentation, read from SKILL.md when asked', async () => {
    await using places = await skillPlaces();
    await writeSkill(places.userSkills, 'deploy', 'Deploy the app.', 'Step one.');
    const detail = await getSkill(places.runtimeDir, places.workdir, 'deploy');
    expect(detail).toEqual({
      name: 'deploy',
      description: 'Deploy the app.',
      enabled: true,
      source: 'global',
      documentation: 'Step one.',
      path: join(places.userSkills, 'deploy'),
    });
    // The body is loaded on demand: an edit shows at the next read.
    await writeSkill(places.userSkills, 'deploy', 'Deploy the app.', 'Step one, revised.');
    expect((await getSkill(places.runtimeDir, places.workdir, 'deploy')).documentation).toBe(
      'Step one, revised.',
    );
    const builtin = await getSkill(places.runtimeDir, places.workdir, 'python');
    expect(builtin.documentation).toMatch(/^# Python/);
  });

  test('an unknown name is SKILL_NOT_FOUND (404) listing what exists', async () => {
    await using places = await skillPlaces();
    const error = await getSkill(places.runtimeDir, places.workdir, 'nope').catch(
      (caught: unknown) => caught,
    );
    expect(KeelError.is(error) && error.toJSON()).toEqual({
      code: 'SKILL_NOT_FOUND',
      message: "Skill 'nope' does not exist. Available: containers, git, package-managers, python, testing.",
      details: { name: 'nope', available: ['containers', 'git', 'package-managers', 'python', 'testing'] },
    });
  });
});

describe('setSkillEnabled', () => {
  test('writes the global or the project file, keeping every other setting', async () => {
    await using places = await skillPlaces();
    const globalFile = join(places.runtimeDir, 'config.json');
    const projectFile = join(places.workdir, '.runtime', 'config.json');
    await places.config('global', { model: 'm', skills: { custom_dirs: ['x'] } });

    const disabled = await setSkillEnabled(places.runtimeDir, places.workdir, 'git', false, {
      scope: 'global',
    });
    expect(disabled).toEqual(expect.objectContaining({ name: 'git', enabled: false, source: 'builtin' }));
    expect(await readJson(globalFile)).toEqual({
      model: 'm',
      skills: { custom_dirs: ['x'], disabled: ['git'] },
    });

    const enabled = await setSkillEnabled(places.runtimeDir, places.workdir, 'git', true, {
      scope: 'global',
    });
    expect(enabled.enabled).toBe(true);
    expect(await readJson(globalFile)).toEqual({ model: 'm', skills: { custom_dirs: ['x'], disabled: [] } });

    await setSkillEnabled(places.runtimeDir, places.workdir, 'testing', false, { scope: 'project' });
    expect(await readJson(projectFile)).toEqual({ skills: { disabled: ['testing'] } });
    expect(await enabledNames(places.runtimeDir, places.workdir)).toEqual([
      'containers',
      'git',
      'package-managers',
      'python',
    ]);
  });

  test('a project change keeps what the global file disables or allows, since the project list replaces it', async () => {
    await using places = await skillPlaces();
    await places.config('global', { skills: { disabled: ['git'] } });
    await setSkillEnabled(places.runtimeDir, places.workdir, 'testing', false, { scope: 'project' });
    expect(await enabledNames(places.runtimeDir, places.workdir)).toEqual([
      'containers',
      'package-managers',
      'python',
    ]);

    await places.config('global', { skills: { enabled: ['git'] } });
    await writeFile(join(places.workdir, '.runtime', 'config.json'), '{}');
    const skill = await setSkillEnabled(places.runtimeDir, places.workdir, 'testing', true, {
      scope: 'project',
    });
    expect(skill.enabled).toBe(true);
    expect(await enabledNames(places.runtimeDir, places.workdir)).toEqual(['git', 'testing']);
  });

  test('a global change that the project file overrides answers the skill as it really is there', async () => {
    await using places = await skillPlaces();
    await places.config('project', { skills: { disabled: ['git'] } });
    const skill = await setSkillEnabled(places.runtimeDir, places.workdir, 'git', true, { scope: 'global' });
    expect(skill.enabled).toBe(false);
  });

  test('an unknown skill is SKILL_NOT_FOUND and nothing is written', async () => {
    await using places = await skillPlaces();
    const error = await setSkillEnabled(places.runtimeDir, places.workdir, 'nope', false, {
      scope: 'global',
    }).catch((caught: unknown) => caught);
    expect(KeelError.is(error) && error.code).toBe('SKILL_NOT_FOUND');
    await expect(readFile(join(places.runtimeDir, 'config.json'), 'utf8')).rejects.toThrow(/ENOENT/);
  });
});

describe('runtime.skills', () => {
  test('lists, gets, disables and enables through the Runtime, on its workdir unless told another', async () => {
    await using places = await skillPlaces();
    await writeSkill(places.projectSkills, 'deploy', 'Deploy it.');
    const runtime = createRuntime({ runtimeDir: places.runtimeDir, workdir: places.workdir, env: {} });
    try {
      const { skills } = await runtime.skills.list();
      expect(skills.find((skill) => skill.name === 'deploy')).toMatchObject({ source: 'project' });
      expect((await runtime.skills.get('deploy')).documentation).toBe('How to deploy.');
      expect(await runtime.skills.disable('deploy', { scope: 'project' })).toMatchObject({ enabled: false });
      expect(await runtime.skills.enable('deploy', { scope: 'project' })).toMatchObject({ enabled: true });
      // Another workdir has no such project skill.
      const elsewhere = await runtime.skills.list({ workdir: places.runtimeDir });
      expect(elsewhere.skills.map((skill) => skill.name)).not.toContain('deploy');
      await expect(runtime.skills.list({ workdir: join(places.workdir, 'missing') })).rejects.toMatchObject({
        code: 'INVALID_PARAMS',
      });
    } finally {
      await runtime.close();
    }
  });
});
