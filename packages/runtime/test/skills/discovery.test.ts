import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { listSkills } from '../../src/skills/index.ts';
import { skillPlaces, writeSkill, writeSkillFile } from './skill-dirs.ts';

describe('skill discovery', () => {
  test('the built-in skills are listed, enabled, with their source, sorted by name', async () => {
    await using places = await skillPlaces();
    const { skills, warnings } = await listSkills(places.runtimeDir, places.workdir);
    expect(warnings).toEqual([]);
    expect(skills.map((skill) => skill.name)).toEqual([
      'containers',
      'git',
      'package-managers',
      'python',
      'testing',
    ]);
    for (const skill of skills) {
      expect(skill).toMatchObject({ enabled: true, source: 'builtin' });
      expect(skill.description.length).toBeGreaterThan(20);
    }
  });

  test('user, project and custom directories add skills, and a later source overrides an earlier one by name', async () => {
    await using places = await skillPlaces();
    const custom = join(places.workdir, 'team-skills');
    const fromEnv = await mkdtemp(join(tmpdir(), 'keel-skills-env-'));
    try {
      await writeSkill(places.userSkills, 'python', 'The user review.');
      await writeSkill(places.userSkills, 'deploy', 'Deploy from the user dir.');
      await writeSkill(places.projectSkills, 'deploy', 'Deploy, the project way.');
      await writeSkill(places.projectSkills, 'migrate', 'Project migrations.');
      await writeSkill(custom, 'migrate', 'Team migrations.');
      await writeSkill(fromEnv, 'release', 'Release from RUNTIME_SKILL_DIRS.');
      // Relative custom dirs resolve against the workdir.
      await places.config('global', { skills: { custom_dirs: ['team-skills'] } });

      const { skills, warnings } = await listSkills(places.runtimeDir, places.workdir, {
        envDirs: [fromEnv],
      });
      expect(warnings).toEqual([]);
      const byName = Object.fromEntries(skills.map((skill) => [skill.name, skill]));
      expect(Object.keys(byName)).toEqual([
        'containers',
        'deploy',
        'git',
        'migrate',
        'package-managers',
        'python',
        'release',
        'testing',
      ]);
      expect(byName.python).toEqual({
        name: 'python',
        description: 'The user review.',
        enabled: true,
        source: 'global',
      });
      expect(byName.deploy).toMatchObject({ description: 'Deploy, the project way.', source: 'project' });
      expect(byName.migrate).toMatchObject({ description: 'Team migrations.', source: 'custom' });
      expect(byName.release).toMatchObject({ source: 'custom' });
      expect(byName.git).toMatchObject({ source: 'builtin' });
    } finally {
      await rm(fromEnv, { recursive: true, force: true });
    }
  });

  test('an invalid SKILL.md is skipped with a warning naming the file and the problem; the rest still load', async () => {
    await using places = await skillPlaces();
    const root = places.projectSkills;
    const cases: Array<[string, string, RegExp]> = [
      ['no-front-matter', '# Just markdown\n', /does not begin with YAML front matter/],
      ['no-name', '---\ndescription: Has no name.\n---\nBody\n', /has no name/],
      ['no-description', '---\nname: no-description\n---\nBody\n', /has no description/],
      [
        'other-dir',
        '---\nname: other-name\ndescription: Misplaced.\n---\n',
        /differs from its directory name/,
      ],
      ['Bad_Name', '---\nname: Bad_Name\ndescription: Caps.\n---\n', /lowercase letters and hyphens only/],
      ['broken-yaml', '---\nname: broken-yaml\ndescription: [unclosed\n---\n', /not valid YAML/],
      ['list-yaml', '---\n- a\n- b\n---\n', /not a YAML mapping/],
      ['long-text', `---\nname: long-text\ndescription: ${'x'.repeat(1025)}\n---\n`, /longer than 1024/],
    ];
    for (const [folder, text] of cases) await writeSkillFile(root, folder, text);
    await writeSkill(root, 'fine', 'Still loads.');
    // A folder without SKILL.md is not a skill and not a problem.
    await mkdir(join(root, 'notes'), { recursive: true });

    const { skills, warnings } = await listSkills(places.runtimeDir, places.workdir);
    expect(skills.map((skill) => skill.name)).toContain('fine');
    for (const [folder] of cases) expect(skills.map((skill) => skill.name)).not.toContain(folder);
    expect(warnings).toHaveLength(cases.length);
    for (const [folder, , problem] of cases) {
      const warning = warnings.find((each) => each.path === join(root, folder, 'SKILL.md'));
      expect(warning?.message, folder).toMatch(/^Skipped: /);
      expect(warning?.message, folder).toMatch(problem);
    }
  });

  test('a folded multi-line description becomes one line; the body is not read to list', async () => {
    await using places = await skillPlaces();
    await writeSkillFile(
      places.userSkills,
      'folded',
      '---\r\nname: folded\r\ndescription: >\r\n  First line\r\n  second line.\r\nlicense: MIT\r\n---\r\nBody\r\n',
    );
    const { skills } = await listSkills(places.runtimeDir, places.workdir);
    expect(skills.find((skill) => skill.name === 'folded')?.description).toBe('First line second line.');
  });

  test('a configured skill directory that does not exist is a warning, not an error', async () => {
    await using places = await skillPlaces();
    await places.config('project', { skills: { custom_dirs: ['missing-dir'] } });
    const { skills, warnings } = await listSkills(places.runtimeDir, places.workdir);
    expect(skills.length).toBeGreaterThan(0);
    expect(warnings).toEqual([
      {
        path: join(places.workdir, 'missing-dir'),
        message: 'This skill directory (named in skills.custom_dirs) does not exist.',
      },
    ]);
  });
});
