import { describe, expect, test } from 'vitest';
import { errorWords, fieldLabel, issueWords, scrub } from '../src/api/error-words.ts';
import { ApiError } from '../src/api/errors.ts';

const invalid = (...issues: { field: string; message: string }[]) =>
  new ApiError(400, {
    code: 'INVALID_PARAMS',
    message: `${issues[0]?.field}: ${issues[0]?.message}`,
    details: { issues },
  });

describe('API errors in words', () => {
  test('field paths read as labels', () => {
    expect(fieldLabel('body.name')).toBe('Name');
    expect(fieldLabel('repositories.1.path')).toBe('Repository 2 path');
    expect(fieldLabel('mcp_servers.0.command')).toBe('MCP server 1 command');
    expect(fieldLabel('prd_links.1')).toBe('PRD link 2');
    expect(fieldLabel('base_url')).toBe('Base URL');
  });

  test('validation messages read as words after the label', () => {
    expect(issueWords('Too small: expected string to have >=1 characters')).toBe('is required');
    expect(issueWords('Invalid input: expected string, received undefined')).toBe('is required');
    expect(issueWords('Too big: expected string to have <=200 characters')).toBe(
      'is too long (at most 200 characters)',
    );
  });

  test('INVALID_PARAMS: one sentence per field', () => {
    const error = invalid(
      { field: 'body.name', message: 'Too small: expected string to have >=1 characters' },
      { field: 'body.repositories.0.path', message: 'Invalid input: expected string, received undefined' },
    );
    expect(errorWords(error)).toBe('Name is required. Repository 1 path is required.');
    expect(errorWords(error.narrowed((field) => field === 'name') as ApiError)).toBe('Name is required.');
    expect(error.narrowed((field) => field === 'description')).toBeNull();
  });

  test('SESSION_BUSY says what runs, without the session id or an API path', () => {
    const error = new ApiError(409, {
      code: 'SESSION_BUSY',
      message:
        'This session is still busy with writing the technical plan. Wait for it to finish, or stop it (POST /api/sessions/wses_01m8b8gec65jqge2jysvgaqw0y/stop), then try again.',
      details: { session_id: 'wses_01m8b8gec65jqge2jysvgaqw0y', running: 'writing the technical plan' },
    });
    const words = errorWords(error);
    expect(words).toContain('writing the technical plan');
    expect(words).not.toContain('wses_');
    expect(words).not.toContain('SESSION_BUSY');
  });

  test('other messages lose internal ids', () => {
    const error = new ApiError(409, {
      code: 'INVALID_STATE',
      message:
        "Project 'prj_01m8b8daw5q6s3pryy5bft6aps' is generating its knowledge already: wait for it to end.",
    });
    expect(errorWords(error)).toBe('Project is generating its knowledge already: wait for it to end.');
  });
});

describe('scrub', () => {
  test('a retry hint with an API path becomes words', async () => {
    expect(
      scrub(
        'Writing the commit message failed: boom. Retry with POST /api/tasks/task_01m8b8w7gc7szvh683v5hxsntv/commit-message.',
      ),
    ).toBe('Writing the commit message failed: boom. Retry it on this page.');
  });
});

describe('scrub', () => {
  test("an API client's fix becomes nothing: the page has a field for it", () => {
    expect(scrub('No AI model is set: PUT /api/settings {"model": "<model name>"}.')).toBe(
      'No AI model is set.',
    );
    expect(scrub('Set one: PUT /api/settings; then retry.')).toBe('Set one; then retry.');
  });
});
