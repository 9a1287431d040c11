import { chmod, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const sdkUrl = pathToFileURL(createRequire(import.meta.url).resolve('@agentclientprotocol/sdk')).href;

/**
 * A small ACP agent over stdio, built on the SDK's agent side. What it does on a prompt is chosen by
 * FAKE_SCENARIO in its environment (the runner config's env); FAKE_TARGET names a file for scenarios that
 * touch one; FAKE_CALLS lists the tool calls the `ask` scenario asks permission for; FAKE_ENV_FILE is where it
 * writes its own environment. It reports what the client answered as its message text, so tests read it
 * from the events.
 */
const agentSource = `#!${process.execPath}
import { agent, ndJsonStream, PROTOCOL_VERSION } from '${sdkUrl}';
import { Readable, Writable } from 'node:stream';
import { appendFileSync, renameSync, writeFileSync } from 'node:fs';

// FAKE_ENV_FILE: where the agent writes the environment it was started with (JSON; whole, as several may run).
if (process.env.FAKE_ENV_FILE) {
  writeFileSync(process.env.FAKE_ENV_FILE + '.' + process.pid, JSON.stringify(process.env));
  renameSync(process.env.FAKE_ENV_FILE + '.' + process.pid, process.env.FAKE_ENV_FILE);
}

// FAKE_LOG: a file where the agent notes when it starts and when it has opened a session.
const note = (what) => process.env.FAKE_LOG && appendFileSync(process.env.FAKE_LOG, what + '\\n');
note('start');

const scenario = process.env.FAKE_SCENARIO ?? 'edit';
const target = process.env.FAKE_TARGET ?? '';
let cancelled;
const say = (client, sessionId, text) =>
  client.notify('session/update', { sessionId, update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } } });
const tool = (client, sessionId, update) => client.notify('session/update', { sessionId, update });
const tryIt = async (work) => { try { await work(); return 'ok'; } catch (error) { return 'refused: ' + error.message; } };

const app = agent({ name: 'fake' })
  .onRequest('initialize', () => ({
    protocolVersion: PROTOCOL_VERSION,
    agentCapabilities: { loadSession: scenario === 'load', promptCapabilities: { image: true } },
    agentInfo: { name: 'fake-agent', version: '9.9.9' },
  }))
  .onRequest('session/new', async ({ params }) => {
    // Slow to set up, as a first start that creates its own database is.
    if (process.env.FAKE_LOG) await new Promise((resolve) => setTimeout(resolve, 300));
    note('opened');
    process.stderr.write('new session in ' + params.cwd + ' with ' + JSON.stringify(params.mcpServers) + '\\n');
    return { sessionId: 'fake-session-1' };
  })
  .onRequest('session/load', async ({ params, client }) => {
    // The history replay the runner must not report as this run's events.
    await say(client, params.sessionId, 'OLD HISTORY');
    return {};
  })
  .onNotification('session/cancel', () => cancelled?.())
  .onRequest('session/prompt', async ({ params, client }) => {
    const id = params.sessionId;
    const text = params.prompt.filter((block) => block.type === 'text').map((block) => block.text).join('');
    if (scenario === 'echo') {
      const images = params.prompt.filter((block) => block.type === 'image').length;
      await say(client, id, 'PROMPT[' + text + '] IMAGES[' + images + ']');
      return { stopReason: 'end_turn' };
    }
    if (scenario === 'edit' || scenario === 'load') {
      await tool(client, id, { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'write', kind: 'edit', status: 'pending', locations: [], rawInput: {} });
      const answers = [];
      for (const [kind, title] of [['edit', 'write'], ['execute', 'bash']]) {
        const answer = await client.request('session/request_permission', {
          sessionId: id,
          toolCall: { toolCallId: kind === 'edit' ? 't1' : 't2', kind, title, locations: kind === 'edit' ? [{ path: target }] : [] },
          options: [
            { optionId: 'once', name: 'Allow once', kind: 'allow_once' },
            { optionId: 'always', name: 'Always allow', kind: 'allow_always' },
            { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
          ],
        });
        answers.push(kind + '=' + (answer.outcome.optionId ?? answer.outcome.outcome));
      }
      await tool(client, id, { sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'in_progress', locations: [{ path: target }], rawInput: { filePath: target } });
      const write = await tryIt(() => client.request('fs/write_text_file', { sessionId: id, path: target, content: 'edited by fake\\n' }));
      await tool(client, id, { sessionUpdate: 'tool_call_update', toolCallId: 't1', status: write === 'ok' ? 'completed' : 'failed', content: [{ type: 'content', content: { type: 'text', text: write } }] });
      await say(client, id, answers.join(' ') + ' write=' + write);
      return { stopReason: 'end_turn', usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 } };
    }
    if (scenario === 'ask') {
      // FAKE_CALLS: tool calls (JSON) to ask permission for; the answers, with the reason given, as JSON.
      const results = [];
      for (const [index, call] of JSON.parse(process.env.FAKE_CALLS ?? '[]').entries()) {
        const answer = await client.request('session/request_permission', {
          sessionId: id,
          toolCall: { toolCallId: 'ask' + index, status: 'pending', ...call },
          options: [
            { optionId: 'once', name: 'Allow once', kind: 'allow_once' },
            { optionId: 'always', name: 'Always allow', kind: 'allow_always' },
            { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
          ],
        });
        results.push({ answer: answer.outcome.optionId ?? answer.outcome.outcome, reason: answer._meta?.reason });
      }
      await say(client, id, JSON.stringify(results));
      return { stopReason: 'end_turn' };
    }
    if (scenario === 'fs') {
      const results = [];
      for (const path of target.split('|')) {
        results.push(path + ' write=' + (await tryIt(() => client.request('fs/write_text_file', { sessionId: id, path, content: 'x' }))));
        results.push(path + ' read=' + (await tryIt(() => client.request('fs/read_text_file', { sessionId: id, path }))));
      }
      await say(client, id, results.join('\\n'));
      return { stopReason: 'end_turn' };
    }
    if (scenario === 'cancel') {
      const done = new Promise((resolve) => { cancelled = resolve; });
      await say(client, id, 'working...');
      await done;
      return { stopReason: 'cancelled' };
    }
    if (scenario === 'crash') {
      await say(client, id, 'about to crash');
      process.stderr.write('fatal: the fake agent blew up\\n');
      setTimeout(() => process.exit(3), 10);
      return new Promise(() => {});
    }
    if (scenario === 'hang') return new Promise(() => {});
    return { stopReason: scenario };
  });

app.connect(ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin)));
`;

/** Writes the fake agent as an executable into `dir`; returns its path (for `binary_path`). */
export async function writeFakeAgent(dir: string): Promise<string> {
  const path = join(dir, 'fake-acp-agent.mjs');
  await writeFile(path, agentSource, 'utf8');
  await chmod(path, 0o755);
  return path;
}
