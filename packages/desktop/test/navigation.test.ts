import { describe, expect, test } from 'vitest';
import { navigationVerdict } from '../src/index.ts';

describe('what the window loads', () => {
  const own = 'http://127.0.0.1:8123';
  test.each([
    ['http://127.0.0.1:8123/tasks/t1', false, 'load'],
    ['about:blank', false, 'load'],
    // Another origin, even the same host on another port or under another name: the browser's.
    ['http://127.0.0.1:9000/', false, 'browser'],
    ['http://localhost:8123/', false, 'browser'],
    ['https://github.com/o/r/pull/1', false, 'browser'],
    // A page of its own that the SPA opens in a new tab (the API docs) goes to the browser too.
    ['http://127.0.0.1:8123/docs', true, 'browser'],
    ['file:///etc/passwd', false, 'refuse'],
    ['data:text/html,<h1>x</h1>', false, 'refuse'],
    ['blob:http://127.0.0.1:8123/uuid', true, 'refuse'],
    ['javascript:alert(1)', false, 'refuse'],
    ['not a url', false, 'refuse'],
  ] as const)('%s (new window: %s) → %s', (target, newWindow, verdict) => {
    expect(navigationVerdict(own, target, newWindow)).toBe(verdict);
  });
});
