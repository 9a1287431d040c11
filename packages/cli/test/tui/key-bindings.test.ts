import { describe, expect, test } from 'vitest';
import { keyAction, type Mode, splitTypeAhead } from '../../src/tui/key-bindings.ts';

const act = (input: string, key: Record<string, boolean>, mode: Mode, inputEmpty = true) =>
  keyAction(input, key, { mode, inputEmpty });

describe('key bindings', () => {
  test('Ctrl-C cancels a run, clears a typed line when idle, and quits on an empty one', () => {
    for (const mode of ['running', 'approval', 'question'] as const) {
      expect(act('c', { ctrl: true }, mode)).toEqual({ type: 'cancel-run' });
    }
    expect(act('c', { ctrl: true }, 'idle', false)).toEqual({ type: 'edit', op: { type: 'clear' } });
    expect(act('c', { ctrl: true }, 'idle')).toEqual({ type: 'quit' });
  });

  test('Esc cancels a run (also one waiting for an answer); idle, it clears the line', () => {
    expect(act('', { escape: true }, 'running', false)).toEqual({ type: 'cancel-run' });
    expect(act('', { escape: true }, 'approval')).toEqual({ type: 'cancel-run' });
    expect(act('', { escape: true }, 'idle', false)).toEqual({ type: 'edit', op: { type: 'clear' } });
  });

  test('Ctrl-D quits only when idle with an empty line', () => {
    expect(act('d', { ctrl: true }, 'idle')).toEqual({ type: 'quit' });
    expect(act('d', { ctrl: true }, 'running')).toEqual({ type: 'edit', op: { type: 'delete' } });
  });

  test('y and n decide an approval at once, only when nothing is typed', () => {
    expect(act('y', {}, 'approval')).toEqual({ type: 'approve' });
    expect(act('N', {}, 'approval')).toEqual({ type: 'reject' });
    expect(act('y', {}, 'approval', false)).toEqual({ type: 'edit', op: { type: 'insert', text: 'y' } });
    expect(act('y', {}, 'question')).toEqual({ type: 'edit', op: { type: 'insert', text: 'y' } });
    expect(act('y', {}, 'running')).toEqual({ type: 'edit', op: { type: 'insert', text: 'y' } });
  });

  test('Enter submits, PgUp/PgDn scroll, arrows edit and recall, other control keys are ignored', () => {
    expect(act('', { return: true }, 'running')).toEqual({ type: 'submit' });
    expect(act('', { pageUp: true }, 'idle')).toEqual({ type: 'scroll', direction: 'up' });
    expect(act('', { upArrow: true }, 'idle')).toEqual({ type: 'edit', op: { type: 'history-previous' } });
    expect(act('', { backspace: true }, 'idle')).toEqual({ type: 'edit', op: { type: 'backspace' } });
    expect(act('w', { ctrl: true }, 'idle')).toEqual({ type: 'edit', op: { type: 'delete-word' } });
    expect(act('g', { ctrl: true }, 'idle')).toEqual({ type: 'ignore' });
    expect(act('', { tab: true }, 'idle')).toEqual({ type: 'ignore' });
  });

  test('a typed chunk with carriage returns is text and Enter presses, in order', () => {
    expect(splitTypeAhead('/help\r/new\r', {})).toEqual([
      { input: '/help', key: {} },
      { input: '', key: { return: true } },
      { input: '/new', key: {} },
      { input: '', key: { return: true } },
    ]);
    expect(splitTypeAhead('hello', {})).toEqual([{ input: 'hello', key: {} }]);
    expect(splitTypeAhead('\r', { return: true })).toEqual([{ input: '\r', key: { return: true } }]);
  });
});
