import { describe, expect, test } from 'vitest';
import { parseInput, slashCommands } from '../../src/tui/slash-commands.ts';
import { helpText } from '../../src/tui/slash-handlers.ts';

describe('parseInput', () => {
  test('blank input is nothing to send', () => {
    expect(parseInput('')).toEqual({ kind: 'empty' });
    expect(parseInput('   \n ')).toEqual({ kind: 'empty' });
  });

  test('plain text is a prompt, trimmed', () => {
    expect(parseInput('  fix the tests \n')).toEqual({ kind: 'prompt', text: 'fix the tests' });
  });

  test('a known command, with its argument (case-insensitive name)', () => {
    expect(parseInput('/help')).toEqual({ kind: 'command', name: 'help', argument: '' });
    expect(parseInput('/Sessions  ses_01abc ')).toEqual({
      kind: 'command',
      name: 'sessions',
      argument: 'ses_01abc',
    });
    expect(parseInput('/image ./shots/login page.png')).toEqual({
      kind: 'command',
      name: 'image',
      argument: './shots/login page.png',
    });
  });

  test('aliases people type from other tools', () => {
    expect(parseInput('/exit')).toMatchObject({ kind: 'command', name: 'quit' });
    expect(parseInput('/q')).toMatchObject({ kind: 'command', name: 'quit' });
    expect(parseInput('/?')).toMatchObject({ kind: 'command', name: 'help' });
  });

  test('an unknown command, with a suggestion when one command starts with what was typed', () => {
    expect(parseInput('/sess')).toEqual({ kind: 'unknown-command', name: 'sess', suggestion: 'sessions' });
    expect(parseInput('/frobnicate now')).toEqual({
      kind: 'unknown-command',
      name: 'frobnicate',
      suggestion: null,
    });
    // `/s` starts both /sessions, /skills and /settings: no guess.
    expect(parseInput('/s')).toEqual({ kind: 'unknown-command', name: 's', suggestion: null });
  });

  test('a line starting with a path is a prompt; // escapes a leading slash', () => {
    expect(parseInput('/etc/hosts has a typo, fix it')).toEqual({
      kind: 'prompt',
      text: '/etc/hosts has a typo, fix it',
    });
    expect(parseInput('//help is not a command here')).toEqual({
      kind: 'prompt',
      text: '/help is not a command here',
    });
  });

  test('/help names every command of the spec and the keys', () => {
    const names = slashCommands.map((command) => command.name);
    expect(names).toEqual(['help', 'new', 'sessions', 'skills', 'settings', 'image', 'clear', 'quit']);
    const help = helpText();
    for (const command of slashCommands) expect(help).toContain(command.usage);
    expect(help).toMatch(/Esc, Ctrl-C\s+cancel the run in progress/);
  });
});
