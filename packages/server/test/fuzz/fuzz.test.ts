// long-running: 10,000 requests against keel-web
import { createCodingTools } from '@keel/runtime';
import { runRequestSchema } from '@keel/runtime/internal';
import { failureSummary, fuzzService, type JsonSchema } from '@keel/testkit/fuzz';
import { expect, test } from 'vitest';
import { z } from 'zod';
import { startServer } from '../harness.ts';

test('10,000 generated and hostile requests: no 5xx, every error in the shape, still healthy', {
  timeout: 300_000,
}, async () => {
  await using s = await startServer([{ text: 'done' }], { files: { 'README.md': '# fuzz\n' } });
  const run = await s.api('POST', '/runtime/runs', { prompt: 'say done', workdir: s.repo.path });
  expect(run.status).toBe(202);
  const session = await s.api('POST', '/sessions');
  const openapi = (await s.api('GET', '/docs/json')).body;

  // The published schemas of /run and /tool are open objects; these are what the handlers check.
  const runRequest = z.toJSONSchema(runRequestSchema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  const toolCall: JsonSchema = {
    anyOf: createCodingTools()
      .toModelTools()
      .map(({ function: tool }) => ({
        type: 'object',
        properties: { tool: { const: tool.name }, params: tool.parameters as JsonSchema },
        required: ['tool', 'params'],
      })),
  };
  const report = await fuzzService({
    base: s.base,
    openapi,
    requests: 10_000,
    seed: 20261123,
    // The spec answers a tool's own failure through POST /tool with 500 TOOL_ERROR.
    specified5xx: ['TOOL_ERROR'],
    bodies: { 'POST /run': runRequest, 'POST /run/stream': runRequest, 'POST /tool': toolCall },
    known: {
      id: [run.body.run_id],
      session_id: [session.body.session_id ?? session.body.id ?? 'none'],
      name: ['git', 'python'],
      workdir: [s.repo.path],
      path: ['README.md', 'src', '.'],
      checkpoint_id: [],
    },
  });

  console.log(`fuzz keel-web: ${report.sent} requests, by status ${JSON.stringify(report.byStatus)}`);
  expect(report.sent).toBeGreaterThanOrEqual(10_000);
  expect(report.failures.length, failureSummary(report)).toBe(0);
  expect((await s.api('GET', '/health')).status).toBe(200);
});
