import { describe, expect, test } from 'vitest';
import { KeelError, type RuntimeEvent } from '../../src/index.ts';
import { startHarness } from '../harness.ts';

type ChatRequest = {
  messages?: Array<{ role: string; content?: unknown }>;
  tools?: Array<{ function: { name: string } }>;
};

const systemPromptOf = (request: ChatRequest | undefined) => String(request?.messages?.[0]?.content ?? '');
const toolNamesOf = (request: ChatRequest | undefined) =>
  (request?.tools ?? []).map((tool) => tool.function.name);
const resultsOf = (events: RuntimeEvent[], tool: string) =>
  events.flatMap((event) =>
    event.type === 'tool_result' && event.tool_name === tool ? [String(event.result)] : [],
  );

const deploySkill = [
  '---',
  'name: deploy',
  'description: Ship the app to production with the release script.',
  '---',
  '',
  '# Deploy',
  'Run the checklist in references/checklist.md, then tag the release.',
  '',
].join('\n');

describe('skills in an agent run', () => {
  test('the system prompt lists each enabled skill in one line, and the model reads one with read_skill', async () => {
    await using h = await startHarness([
      { toolCalls: [{ name: 'read_skill', arguments: { name: 'python' } }] },
      { text: 'Reviewed, following the python skill.' },
    ]);
    const { events, error } = await h.collect({ prompt: 'Review my change' });
    expect(error).toBeUndefined();

    const [first, second] = h.model.chatRequests as ChatRequest[];
    const prompt = systemPromptOf(first);
    expect(prompt).toContain('# Skills');
    const skillLines = prompt.split('\n').filter((line) => /^- [a-z-]+: \S/.test(line));
    expect(skillLines.map((line) => line.split(':')[0])).toEqual([
      '- containers',
      '- git',
      '- package-managers',
      '- python',
      '- testing',
    ]);
    expect(toolNamesOf(first)).toEqual(expect.arrayContaining(['list_skills', 'read_skill']));

    const [documentation] = resultsOf(events, 'read_skill');
    expect(documentation).toMatch(/^# Skill: python\n\n# Python\n/);
    expect(documentation).toContain('Find how the project runs');
    // What the model saw next is the documentation, as the tool's answer.
    const toolMessage = second?.messages?.at(-1);
    expect(toolMessage).toMatchObject({ role: 'tool' });
    expect(String(toolMessage?.content)).toContain('Find how the project runs');
  });

  test("the request's skills narrow the run's skills; reading another one is a tool error the model sees", async () => {
    await using h = await startHarness([
      { toolCalls: [{ name: 'list_skills', arguments: {} }] },
      { toolCalls: [{ name: 'read_skill', arguments: { name: 'git' } }] },
      { toolCalls: [{ name: 'read_skill', arguments: { name: 'no-such-skill' } }] },
      { text: 'Done with the testing skill only.' },
    ]);
    const { events, error } = await h.collect({ prompt: 'Add tests', skills: ['testing'] });
    expect(error).toBeUndefined();
    const prompt = systemPromptOf(h.model.chatRequests[0] as ChatRequest);
    expect(prompt).toMatch(/^- testing: /m);
    expect(prompt).not.toMatch(/^- (git|python): /m);
    expect(resultsOf(events, 'list_skills')).toEqual([expect.stringMatching(/^- testing: [^\n]+$/)]);
    const [git, unknown] = resultsOf(events, 'read_skill');
    expect(git).toContain(
      "Skill 'git' is not enabled for this run or does not exist. Enabled skills: testing.",
    );
    expect(unknown).toContain("Skill 'no-such-skill' is not enabled for this run or does not exist.");
  });

  test('an unknown or disabled skill in the request is INVALID_PARAMS naming it, before any run exists', async () => {
    await using h = await startHarness([], {
      '.runtime/config.json': JSON.stringify({ skills: { disabled: ['git'] } }),
    });
    const unknown = await h.collect({ prompt: 'Go', skills: ['testing', 'made-up'] });
    expect(KeelError.is(unknown.error) && unknown.error.code).toBe('INVALID_PARAMS');
    expect((unknown.error as Error).message).toContain('Unknown skill in skills: made-up.');
    const disabled = await h.collect({ prompt: 'Go', skills: ['git'] });
    expect((disabled.error as Error).message).toContain('Disabled skill in skills: git.');
    expect(await h.runtime.runs.list()).toEqual([]);
    expect(h.model.chatRequests).toHaveLength(0);
  });

  test('with no skill enabled, or the meta tools left out by include_tools, the model sees neither skills nor their tools', async () => {
    await using h = await startHarness([{ text: 'No skills.' }, { text: 'Only read_file.' }], {
      '.runtime/config.json': JSON.stringify({ skills: { enabled: [] } }),
    });
    expect((await h.collect({ prompt: 'One' })).error).toBeUndefined();
    await h.collect({ prompt: 'Two', skills: [] });
    for (const request of h.model.chatRequests as ChatRequest[]) {
      expect(systemPromptOf(request)).not.toContain('# Skills');
      expect(toolNamesOf(request)).not.toContain('read_skill');
      expect(toolNamesOf(request)).not.toContain('list_skills');
    }
  });

  test('include_tools without read_skill leaves the skills out of the prompt', async () => {
    await using h = await startHarness([{ text: 'Read only.' }]);
    expect((await h.collect({ prompt: 'Read', include_tools: ['read_file'] })).error).toBeUndefined();
    const request = h.model.chatRequests[0] as ChatRequest;
    expect(toolNamesOf(request)).toEqual(['read_file']);
    expect(systemPromptOf(request)).not.toContain('# Skills');
  });

  test("a project skill's bundled files are listed and readable with read_skill's file, confined to the skill", async () => {
    await using h = await startHarness(
      [
        { toolCalls: [{ name: 'read_skill', arguments: { name: 'deploy' } }] },
        {
          toolCalls: [{ name: 'read_skill', arguments: { name: 'deploy', file: 'references/checklist.md' } }],
        },
        { toolCalls: [{ name: 'read_skill', arguments: { name: 'deploy', file: '../../config.json' } }] },
        { text: 'Deployed.' },
      ],
      {
        '.runtime/config.json': '{}',
        '.runtime/skills/deploy/SKILL.md': deploySkill,
        '.runtime/skills/deploy/references/checklist.md': '1. Run the tests.\n2. Bump the version.\n',
      },
    );
    const { events, error } = await h.collect({ prompt: 'Deploy it' });
    expect(error).toBeUndefined();
    expect(systemPromptOf(h.model.chatRequests[0] as ChatRequest)).toContain(
      '- deploy: Ship the app to production with the release script.',
    );
    const [documentation, checklist, outside] = resultsOf(events, 'read_skill');
    expect(documentation).toContain('Run the checklist in references/checklist.md');
    expect(documentation).toContain(
      'Files bundled with this skill (read one with read_skill and file): references/checklist.md',
    );
    expect(checklist).toBe('1. Run the tests.\n2. Bump the version.\n');
    expect(outside).toMatch(/Access denied/);
  });
});
