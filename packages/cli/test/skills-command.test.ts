import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { keel, keelJson } from './keel-process.ts';

async function writeSkill(root: string, name: string, text: string): Promise<void> {
  await mkdir(join(root, name), { recursive: true });
  await writeFile(join(root, name, 'SKILL.md'), text);
}

describe('keel skills', () => {
  let home: string;
  let project: string;
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'keel-skills-home-'));
    project = await realpath(await mkdtemp(join(tmpdir(), 'keel-skills-project-')));
  });
  afterEach(async () => {
    await rm(home, { recursive: true, force: true });
    await rm(project, { recursive: true, force: true });
  });
  const env = () => ({ RUNTIME_HOME: home });
  const projectSkills = () => join(project, '.runtime', 'skills');

  test('list shows name, enabled, source and description; --json gives the same with warnings', async () => {
    await writeSkill(projectSkills(), 'deploy', '---\nname: deploy\ndescription: Ship it.\n---\nSteps.\n');
    await writeSkill(projectSkills(), 'broken', '---\nname: broken\n---\nNo description.\n');
    const out = await keel(['skills', 'list', '-w', project], env());
    expect(out.code).toBe(0);
    const lines = out.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^NAME +ENABLED +SOURCE +DESCRIPTION$/);
    expect(lines.map((line) => line.split(/\s+/).slice(0, 3).join(' '))).toEqual([
      'NAME ENABLED SOURCE',
      'containers yes builtin',
      'deploy yes project',
      'git yes builtin',
      'package-managers yes builtin',
      'python yes builtin',
      'testing yes builtin',
    ]);
    expect(lines[2]).toMatch(/ Ship it\.$/);
    expect(out.stderr).toBe(
      `Warning: ${join(projectSkills(), 'broken', 'SKILL.md')}: Skipped: its front matter has no description.\n`,
    );

    const json = await keelJson<{ skills: unknown[]; warnings: unknown[] }>(
      ['skills', 'list', '-w', project],
      env(),
    );
    expect(json.skills).toContainEqual({
      name: 'deploy',
      description: 'Ship it.',
      enabled: true,
      source: 'project',
    });
    expect(json.warnings).toEqual([
      {
        path: join(projectSkills(), 'broken', 'SKILL.md'),
        message: 'Skipped: its front matter has no description.',
      },
    ]);
  }, 30_000);

  test('show prints the fields and the documentation; an unknown name is SKILL_NOT_FOUND', async () => {
    const out = await keel(['skills', 'show', 'python'], env(), project);
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/^Name {9}python\nEnabled {6}yes\nSource {7}builtin\nPath {9}\S+python\n/);
    expect(out.stdout).toContain('\n\n# Python\n');

    const json = await keelJson<{ documentation: string }>(['skills', 'show', 'git'], env(), project);
    expect(json.documentation).toMatch(/^# Git/);

    const missing = await keel(['skills', 'show', 'nope'], env(), project);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(
      "Error [SKILL_NOT_FOUND]: Skill 'nope' does not exist. Available: containers, git, package-managers, python, testing.\n",
    );
  }, 30_000);

  test('disable and enable write the global file, or the project file with --project', async () => {
    const disabled = await keel(['skills', 'disable', 'git', '-w', project], env());
    expect(disabled).toMatchObject({
      code: 0,
      stdout: `Disabled git in ${join(home, 'config.json')}\n`,
      stderr: '',
    });
    expect(JSON.parse(await readFile(join(home, 'config.json'), 'utf8'))).toEqual({
      skills: { disabled: ['git'] },
    });
    const listed = await keelJson<{ skills: Array<{ name: string; enabled: boolean }> }>(
      ['skills', 'list', '-w', project],
      env(),
    );
    expect(listed.skills.find((skill) => skill.name === 'git')?.enabled).toBe(false);

    const projectFile = join(project, '.runtime', 'config.json');
    const enabled = await keel(['skills', 'enable', 'git', '--project', '-w', project], env());
    expect(enabled).toMatchObject({ code: 0, stdout: `Enabled git in ${projectFile}\n` });
    expect(JSON.parse(await readFile(projectFile, 'utf8'))).toEqual({ skills: { disabled: [] } });
    expect(await keelJson(['skills', 'disable', 'testing', '--project', '-w', project], env())).toMatchObject(
      { name: 'testing', enabled: false, source: 'builtin' },
    );
  }, 30_000);

  test('a global change the project file overrides says so; an unknown skill changes nothing', async () => {
    await mkdir(join(project, '.runtime'), { recursive: true });
    await writeFile(
      join(project, '.runtime', 'config.json'),
      JSON.stringify({ skills: { disabled: ['git'] } }),
    );
    const out = await keel(['skills', 'enable', 'git', '-w', project], env());
    expect(out.code).toBe(0);
    expect(out.stderr).toContain("Note: git is still disabled here: the project's .runtime/config.json");

    const unknown = await keel(['skills', 'disable', 'nope'], env(), project);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^Error \[SKILL_NOT_FOUND\]: Skill 'nope' does not exist\./);
    // Nothing to change for the enable, and nothing written for the unknown skill.
    expect(JSON.parse(await readFile(join(home, 'config.json'), 'utf8'))).toEqual({});

    const noName = await keel(['skills', 'enable'], env(), project);
    expect(noName.code).toBe(1);
    expect(noName.stderr).toContain("missing required argument 'name'");
  }, 30_000);
});
