import { Command } from 'commander';
import { describe, expect, test } from 'vitest';
import { addRunRequestOptions, runRequestFromFlags } from '../src/run-request-flags.ts';

/** Parses `args` with only the given run-request options declared, and returns the flags. */
function parse(args: string[], names: Parameters<typeof addRunRequestOptions>[1]) {
  const command = addRunRequestOptions(
    new Command('test').exitOverride().configureOutput({ writeErr: () => undefined }),
    names,
  );
  command.parse(args, { from: 'user' });
  return command.opts();
}

describe('run-request flags', () => {
  test('every flag given becomes its request field, under the spec names', () => {
    const flags = parse(
      [
        '-m',
        'gpt-x',
        '--model-base-url',
        'http://127.0.0.1:1/v1',
        '--thinking',
        '--thinking-budget',
        '512',
        '--max-tokens',
        '0',
        '--max-cost',
        '1.5',
        '--max-steps',
        '7',
        '--include-tools',
        'read_file, grep',
        '--exclude-tools',
        'exec_command',
        '-s',
        'ses_1',
      ],
      [
        'model',
        'modelBaseUrl',
        'thinking',
        'thinkingBudget',
        'maxTokens',
        'maxCost',
        'maxSteps',
        'includeTools',
        'excludeTools',
        'session',
      ],
    );
    const image = { data: 'aGk=', media_type: 'image/png', filename: 'a.png' };
    expect(runRequestFromFlags('do it', '/repo', flags, [image])).toEqual({
      prompt: 'do it',
      workdir: '/repo',
      model: 'gpt-x',
      model_base_url: 'http://127.0.0.1:1/v1',
      enable_thinking: true,
      thinking_budget: 512,
      max_tokens: 0,
      max_cost_usd: 1.5,
      max_steps: 7,
      include_tools: ['read_file', 'grep'],
      exclude_tools: ['exec_command'],
      session_id: 'ses_1',
      images: [image],
    });
  });

  test('flags not given leave their fields out, so config and environment decide', () => {
    const flags = parse([], ['workdir', 'model', 'image', 'thinking', 'maxTokens', 'session']);
    expect(flags).toEqual({ image: [] });
    expect(runRequestFromFlags('hi', '/repo', flags)).toEqual({ prompt: 'hi', workdir: '/repo' });
  });

  test('a bad value is refused by the option parser; a command may reword an option', () => {
    expect(() => parse(['--thinking-budget', '0'], ['thinkingBudget'])).toThrow(/must be a positive integer/);
    const command = addRunRequestOptions(new Command('test'), ['session'], { session: 'open this session' });
    expect(command.helpInformation()).toContain('-s, --session <id>  open this session');
  });
});
