import { describe, expect, test } from 'vitest';
import { type EditOp, type EditorState, edit, emptyEditor, submitted } from '../../src/tui/line-editor.ts';

const apply = (state: EditorState, ...ops: EditOp[]) => ops.reduce(edit, state);
const typed = (text: string) => edit(emptyEditor, { type: 'insert', text });

describe('line editor', () => {
  test('inserts at the cursor and moves through the line', () => {
    const state = apply(typed('helo'), { type: 'left' }, { type: 'insert', text: 'l' });
    expect(state).toMatchObject({ text: 'hello', cursor: 4 });
    expect(apply(state, { type: 'home' }, { type: 'delete' })).toMatchObject({ text: 'ello', cursor: 0 });
    expect(apply(state, { type: 'end' }, { type: 'backspace' })).toMatchObject({ text: 'hell', cursor: 4 });
  });

  test('steps over an emoji as one character', () => {
    const state = typed('a👍🏽b');
    const left = apply(state, { type: 'left' }, { type: 'left' });
    expect(left.cursor).toBe(1);
    expect(apply(state, { type: 'left' }, { type: 'backspace' })).toMatchObject({ text: 'ab', cursor: 1 });
  });

  test('Ctrl-W deletes the word before the cursor, Ctrl-K to the end, Ctrl-U the line', () => {
    expect(apply(typed('git commit -m'), { type: 'delete-word' }).text).toBe('git commit ');
    expect(apply(typed('git commit  '), { type: 'delete-word' }).text).toBe('git ');
    expect(apply(typed('abc def'), { type: 'home' }, { type: 'right' }, { type: 'kill-to-end' }).text).toBe(
      'a',
    );
    expect(apply(typed('abc'), { type: 'clear' })).toMatchObject({ text: '', cursor: 0 });
  });

  test('pasted control characters are dropped; newlines are kept', () => {
    expect(typed('one\r\ntwo\u001b[2J').text).toBe('one\ntwo');
  });

  test('Up and Down recall sent lines and bring back the line being typed', () => {
    let state = submitted(typed('first'));
    state = submitted(edit(state, { type: 'insert', text: 'second' }));
    state = submitted(edit(state, { type: 'insert', text: 'second' }));
    expect(state.history).toEqual(['first', 'second']);
    state = edit(state, { type: 'insert', text: 'draft' });
    state = apply(state, { type: 'history-previous' });
    expect(state.text).toBe('second');
    state = apply(state, { type: 'history-previous' }, { type: 'history-previous' });
    expect(state.text).toBe('first');
    state = apply(state, { type: 'history-next' }, { type: 'history-next' });
    expect(state).toMatchObject({ text: 'draft', cursor: 5, recall: null });
  });

  test('editing a recalled line makes it the line being typed', () => {
    const state = apply(submitted(typed('old')), { type: 'history-previous' }, { type: 'insert', text: '!' });
    expect(state).toMatchObject({ text: 'old!', recall: null });
    expect(edit(state, { type: 'history-next' }).text).toBe('old!');
  });
});
