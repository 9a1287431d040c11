import { describe, expect, test } from 'vitest';
import { detectLoop, similarity } from '../../src/agent/index.ts';
import type { ChatMessage } from '../../src/model/index.ts';

/** A conversation of tool turns, each one call with its result. */
function conversation(turns: Array<[name: string, args: string, result: string]>): ChatMessage[] {
  const messages: ChatMessage[] = [
    { role: 'system', content: 'sys' },
    { role: 'user', content: 'go' },
  ];
  turns.forEach(([name, args, result], i) => {
    messages.push({ role: 'assistant', content: '', tool_calls: [{ id: `c${i}`, name, arguments: args }] });
    messages.push({ role: 'tool', tool_call_id: `c${i}`, content: result });
  });
  return messages;
}

const limits = { turns: 3, threshold: 0.9 };

describe('loop detection', () => {
  test('similarity is the sequence-similarity ratio', () => {
    expect(similarity('abcd', 'abcd')).toBe(1);
    expect(similarity('', '')).toBe(1);
    expect(similarity('abcd', 'abce')).toBeCloseTo(0.75, 10);
    expect(similarity('abcd', 'wxyz')).toBe(0);
    // Below the floor it may give up early, but never reports more than the true ratio.
    expect(similarity('abcd', 'abce', 0.9)).toBeLessThan(0.9);
  });

  test('the early give-up never hides a pair that is alike enough', () => {
    // Texts and their mutations (characters changed, inserted, removed): whenever the exact ratio reaches
    // the floor, the bounded computation must give the same ratio.
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const alphabet = 'abcde fghij\n';
    let checked = 0;
    for (let round = 0; round < 300; round++) {
      const a = Array.from({ length: 20 + random(200) }, () => alphabet[random(alphabet.length)]).join('');
      let b = a;
      for (let edits = random(25); edits > 0; edits--) {
        const at = random(b.length + 1);
        const kind = random(3);
        const char = alphabet[random(alphabet.length)];
        b =
          kind === 0
            ? b.slice(0, at) + char + b.slice(at)
            : kind === 1
              ? b.slice(0, at) + b.slice(at + 1)
              : b.slice(0, at) + char + b.slice(at + 1);
      }
      const exact = similarity(a, b);
      for (const floor of [0.8, 0.9, 0.95]) {
        if (exact < floor) continue;
        checked++;
        expect(similarity(a, b, floor)).toBeCloseTo(exact, 12);
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  test('the same call with the same result, turn after turn, is a loop', () => {
    const same: [string, string, string] = ['read_file', '{"path":"a.txt"}', 'contents of a'];
    expect(detectLoop(conversation([same, same]), limits)).toBeNull();
    expect(detectLoop(conversation([same, same, same]), limits)).toBe(1);
  });

  test('nearly identical turns count; different calls with the same result do not', () => {
    const nearly = conversation([
      ['grep', '{"pattern":"foo"}', 'no matches found in 120 files (pass 1)'],
      ['grep', '{"pattern":"foo"}', 'no matches found in 120 files (pass 2)'],
      ['grep', '{"pattern":"foo"}', 'no matches found in 120 files (pass 3)'],
    ]);
    expect(detectLoop(nearly, limits)).toBeGreaterThanOrEqual(0.9);
    const writes = conversation([
      ['write_file', '{"path":"src/alpha.ts","content":"export const alpha = 1;"}', 'Wrote 23 bytes.'],
      ['write_file', '{"path":"lib/beta.md","content":"# Beta notes"}', 'Wrote 12 bytes.'],
      ['write_file', '{"path":"test/gamma.py","content":"print(42)"}', 'Wrote 9 bytes.'],
    ]);
    expect(detectLoop(writes, limits)).toBeNull();
  });

  test('only this request counts, and an unanswered turn is not finished', () => {
    const same: [string, string, string] = ['list_directory', '{}', 'a.txt'];
    const earlier = conversation([same, same]);
    const now = conversation([same]).slice(1);
    expect(detectLoop([...earlier, ...now], limits)).toBeNull();

    const running = conversation([same, same]);
    running.push({
      role: 'assistant',
      content: '',
      tool_calls: [{ id: 'x', name: 'list_directory', arguments: '{}' }],
    });
    expect(detectLoop(running, limits)).toBeNull();
  });
});
