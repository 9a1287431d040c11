import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { admitSocket, readSocketMessage, unauthorizedClose } from '../src/index.ts';

const schema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('run'), data: z.object({ prompt: z.string() }) }),
  z.object({ type: z.literal('ping') }),
]);

describe("both services' WebSocket plumbing", () => {
  test('a frame is read against its schema; a refusal names the first wrong field or says what a message is', () => {
    expect(readSocketMessage(schema, '{"type":"ping"}')).toEqual({ ok: true, message: { type: 'ping' } });
    const wrong = readSocketMessage(schema, '{"type":"run","data":{"prompt":3}}');
    expect(wrong.ok).toBe(false);
    expect(!wrong.ok && wrong.error.code).toBe('INVALID_PARAMS');
    expect(!wrong.ok && wrong.error.message).toMatch(/^data\.prompt: /);
    expect(readSocketMessage(schema, 'not json')).toEqual({
      ok: false,
      error: { code: 'INVALID_PARAMS', message: 'Messages must be JSON objects with a type.' },
    });
  });

  test('a socket without credentials is closed with 4001', () => {
    const closed: [number, string][] = [];
    const socket = { close: (code: number, reason: string) => void closed.push([code, reason]) };
    const request = {} as Parameters<typeof admitSocket>[1];
    expect(admitSocket(socket, request, () => true)).toBe(true);
    expect(closed).toEqual([]);
    expect(admitSocket(socket, request, () => false)).toBe(false);
    expect(closed).toEqual([[unauthorizedClose, 'Unauthorized']]);
  });
});
