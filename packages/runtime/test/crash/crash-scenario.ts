import type { ScriptedReply } from '@keel/testkit';
import type { Workflow } from '../../src/index.ts';

// The workflow every crash trial runs, and the script that answers it. Every tool call appends its own
// token to `crash.log` in the workdir, so the log counts how many times each call really ran.

/** The file the tool calls append their tokens to, in the run's workdir. */
export const tokenLog = 'crash.log';

/** Every token, in the order an uninterrupted run writes them: two tool batches, then the tool node. */
export const tokens = ['tok-a', 'tok-b', 'tok-c', 'tok-node'] as const;
export type Token = (typeof tokens)[number];

/**
 * Appends the token, says so (the model's next answer is chosen by that text), then lingers long enough
 * for a kill to land while the tool runs.
 */
export function tokenCommand(token: Token): string {
  return `echo ${token} >> ${tokenLog} && echo wrote ${token} && sleep 0.1`;
}

const execCall = (id: string, token: Token) => ({
  id,
  name: 'exec_command',
  arguments: { command: tokenCommand(token) },
});

export const crashPrompt = 'the crash app';

/** A file in the workdir the writer reads, with a tool call that needs a human's approval. */
export const templateFile = { path: 'template.md', content: 'Release template: say what shipped.\n' };
/** Config `security.require_approval`: the writer's read_file waits for an approval. */
export const approvedTools = ['read_file'];

/**
 * A sequence of: an agent with two tool batches and a streamed answer; a tool node; an approval node; a
 * gate whose body is a second agent, whose tool call waits for an approval, and then a streamed answer.
 */
export const crashWorkflow: Workflow = {
  name: 'crash-trial',
  root: {
    id: 'flow',
    kind: 'sequence',
    steps: [
      { id: 'builder', kind: 'agent', prompt: 'Build the parts of {{input.prompt}}.' },
      { id: 'stamp', kind: 'tool', tool: 'exec_command', params: { command: tokenCommand('tok-node') } },
      { id: 'review', kind: 'approval', prompt: 'Ship it? {{nodes.builder.output}}' },
      {
        id: 'quality',
        kind: 'gate',
        body: {
          id: 'writer',
          kind: 'agent',
          prompt: 'Write the release note for: {{nodes.builder.output}}',
          include_tools: ['read_file'],
        },
        check: { output_of: 'writer', contains: 'Release note' },
      },
    ],
  },
};

const builderAnswer = 'Built parts a, b and c of the crash app; each part wrote its token once.';
const releaseNote = 'Release note: parts a, b and c of the crash app shipped after review and a gate.';

/**
 * The model's answers as a function of the conversation's last message (`repeat`): a recovered run that
 * asks again for a turn it lost gets the same answer. Fixed usage keeps the result's usage comparable.
 */
export const crashScript: ScriptedReply[] = [
  {
    when: { lastRole: 'user', lastMessageIncludes: 'Build the parts' },
    toolCalls: [execCall('call_a', 'tok-a'), execCall('call_b', 'tok-b')],
    usage: { prompt_tokens: 100, completion_tokens: 20 },
    repeat: true,
  },
  {
    when: { lastRole: 'tool', lastMessageIncludes: 'wrote tok-b' },
    toolCalls: [execCall('call_c', 'tok-c')],
    usage: { prompt_tokens: 140, completion_tokens: 10 },
    repeat: true,
  },
  {
    when: { lastRole: 'tool', lastMessageIncludes: 'wrote tok-c' },
    reasoning: 'All three parts are written; time to say so.',
    text: builderAnswer,
    chunkDelayMs: 3,
    usage: { prompt_tokens: 160, completion_tokens: 30 },
    repeat: true,
  },
  {
    when: { lastRole: 'user', lastMessageIncludes: 'Write the release note' },
    toolCalls: [{ id: 'call_t', name: 'read_file', arguments: { path: templateFile.path } }],
    usage: { prompt_tokens: 60, completion_tokens: 5 },
    repeat: true,
  },
  {
    when: { lastRole: 'tool', lastMessageIncludes: 'Release template' },
    text: releaseNote,
    chunkDelayMs: 3,
    usage: { prompt_tokens: 80, completion_tokens: 25 },
    repeat: true,
  },
];

/** The tokens a checkpointed scheduler state says have run: tool traces of agents, and finished tool nodes. */
export function checkpointedTokens(state: unknown): Set<Token> {
  const found = new Set<Token>();
  const nodes = (state as { nodes?: Record<string, NodeLike> } | undefined)?.nodes ?? {};
  for (const [id, node] of Object.entries(nodes)) {
    if (id === 'stamp' && node.status === 'succeeded') found.add('tok-node');
    for (const trace of node.agent?.traces ?? []) {
      const command = String(trace.args?.command ?? '');
      for (const token of tokens) if (command.includes(`echo ${token} `)) found.add(token);
    }
  }
  return found;
}

interface NodeLike {
  status?: string;
  agent?: { traces?: { args?: { command?: unknown } }[] };
}
