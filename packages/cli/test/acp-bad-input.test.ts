// Issue #39, item 6: what keel acp cannot do is refused with a clear error, never done silently another way:
// extra folders, an empty prompt, audio or a binary resource in a prompt, and a session loaded from another
// folder than its own. Driven by the ACP SDK's client over stdio, against the real `keel acp`.
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROTOCOL_VERSION } from '@agentclientprotocol/sdk';
import { describe, expect, test } from 'vitest';
import { startAcp } from './acp-client.ts';
import { scenario } from './scenario.ts';

/** The error a request was answered with (it must not succeed). */
async function refusal(request: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await request;
  } catch (error) {
    return error as { code: number; message: string };
  }
  throw new Error('the request succeeded');
}

describe('keel acp refuses what it cannot do, saying why', () => {
  test('extra folders, an empty prompt, audio and blobs, and a session loaded from another folder', {
    timeout: 60_000,
  }, async () => {
    await using s = await scenario([{ when: { lastMessageIncludes: 'hello' }, text: 'Hi.' }]);
    const acp = startAcp(s.env, []);
    const other = mkdtempSync(join(tmpdir(), 'keel-acp-other-'));
    try {
      await acp.agent.request('initialize', { protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
      const extra = await refusal(
        acp.agent.request('session/new', {
          cwd: s.repo.path,
          mcpServers: [],
          additionalDirectories: [other],
        }),
      );
      expect(extra).toMatchObject({ code: -32602 });
      expect(extra.message).toContain('additionalDirectories are not supported');

      const { sessionId } = await acp.agent.request('session/new', { cwd: s.repo.path, mcpServers: [] });
      const empty = await refusal(
        acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: '   ' }] }),
      );
      expect(empty.message).toContain('The prompt is empty');
      const audio = await refusal(
        acp.agent.request('session/prompt', {
          sessionId,
          prompt: [
            { type: 'text', text: 'hello' },
            { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
          ],
        }),
      );
      expect(audio.message).toContain('Keel cannot take audio in a prompt');
      const blob = await refusal(
        acp.agent.request('session/prompt', {
          sessionId,
          prompt: [
            {
              type: 'resource',
              resource: { uri: 'file:///x.bin', blob: 'AAAA', mimeType: 'application/octet-stream' },
            },
          ],
        }),
      );
      expect(blob.message).toContain('a binary resource (file:///x.bin)');
      // Nothing ran for them; a good prompt still does.
      expect(s.model.chatRequests).toHaveLength(0);
      const ok = await acp.agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: 'hello' }],
      });
      expect(ok.stopReason).toBe('end_turn');

      const elsewhere = await refusal(
        acp.agent.request('session/load', { sessionId, cwd: other, mcpServers: [] }),
      );
      expect(elsewhere).toMatchObject({ code: -32602 });
      expect(elsewhere.message).toContain(`works in ${s.repo.path}`);
    } finally {
      await acp.stop();
      rmSync(other, { recursive: true, force: true });
    }
  });

  test('a model error in a folder whose untrusted config names the model says how to trust it', {
    timeout: 90_000,
  }, async () => {
    await using s = await scenario([{ when: { lastMessageIncludes: 'hello' }, text: 'Hi.' }]);
    // The model configured outside the folder is not reachable; the folder's own config names the one that is,
    // but the folder is not trusted, so that key is ignored.
    await writeFile(join(s.home, 'config.json'), JSON.stringify({ model_base_url: 'http://127.0.0.1:9/v1' }));
    await mkdir(join(s.repo.path, '.runtime'), { recursive: true });
    await writeFile(
      join(s.repo.path, '.runtime', 'config.json'),
      JSON.stringify({ model_base_url: s.model.url }),
    );
    const { RUNTIME_MODEL_BASE_URL: _unused, ...env } = s.env;
    const acp = startAcp(env, []);
    try {
      await acp.agent.request('initialize', { protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
      const { sessionId } = await acp.agent.request('session/new', { cwd: s.repo.path, mcpServers: [] });
      const failed = await refusal(
        acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hello' }] }),
      );
      expect(failed.message).toContain('Could not reach the model endpoint');
      expect(failed.message).toContain('model_base_url, which apply only in a trusted folder');
      expect(failed.message).toContain(`keel trust ${s.repo.path}`);
      expect(s.model.chatRequests).toHaveLength(0);
    } finally {
      await acp.stop();
    }
  });
});
