import { describe, expect, test } from 'vitest';
import { fuzzRequests, type OpenApiDocument } from '../src/fuzz/index.ts';
import { breach } from '../src/fuzz/send.ts';

const doc: OpenApiDocument = {
  paths: {
    '/items': {
      post: {
        requestBody: {
          content: {
            'application/json': {
              schema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
            },
          },
        },
      },
    },
    '/items/{id}': { get: {}, delete: {} },
  },
};

describe('fuzz requests', () => {
  test('the same seed gives the same requests; deletions come last; known values are used', () => {
    const options = { openapi: doc, requests: 300, seed: 7, known: { id: ['item-1'] } };
    const first = fuzzRequests(options);
    expect(fuzzRequests(options)).toEqual(first);
    expect(fuzzRequests({ ...options, seed: 8 })).not.toEqual(first);
    const generated = first.filter((request) => !request.label.startsWith('hand-written'));
    const firstDelete = generated.findIndex((request) => request.method === 'DELETE');
    expect(firstDelete).toBeGreaterThan(0);
    expect(generated.slice(firstDelete).every((request) => request.method === 'DELETE')).toBe(true);
    expect(first.some((request) => request.path === '/items/item-1')).toBe(true);
    const posts = first.filter((request) => request.method === 'POST');
    const parses = (body: unknown) => {
      try {
        return typeof body === 'string' && JSON.parse(body) !== undefined;
      } catch {
        return false;
      }
    };
    expect(posts.some((request) => !parses(request.body))).toBe(true);
    expect(posts.some((request) => parses(request.body))).toBe(true);
  });
});

describe('what breaks the promise', () => {
  const shaped = (code: string) => JSON.stringify({ error: { code, message: 'm' } });
  test.each([
    [{ status: 200, body: 'anything' }, undefined],
    [{ status: 404, body: shaped('RUN_NOT_FOUND') }, undefined],
    [{ status: 400, body: 'Bad Request' }, 'status 400 outside the error shape'],
    [{ status: 400, body: JSON.stringify({ error: 'Bad Request' }) }, 'status 400 outside the error shape'],
    [{ status: 500, body: shaped('SERVER_ERROR') }, 'status 500 SERVER_ERROR'],
    [{ status: 500, body: shaped('TOOL_ERROR') }, undefined],
    [{ status: 0, body: '', error: 'no answer within 10 ms' }, 'no answer within 10 ms'],
  ])('%j', (response, expected) => {
    expect(breach(response, ['TOOL_ERROR'])).toBe(expected);
  });
});
