import { join } from 'node:path';
import type { ScriptedReply } from '@keel/testkit';
import { knowledgeScript } from '../harness.ts';

// What the scripted model answers when opencode (as `opencode run` or as `opencode acp`) drives the
// workbench's stages. Each reply is chosen by text unique to the stage's prompt (src/projects/layer-prompts.ts,
// src/tasks/prompts.ts): the knowledge layers run concurrently, so order alone cannot pick a reply. The
// prompts reach opencode wrapped in <instructions>…<request>…, so matching on "includes" still works.

export const planTexts = {
  draft: '# Plan\n\nAdd a greeting to both repositories.',
  refined: '# Plan v2\n\nAdd a greeting to both repositories, with tests.',
  chatted: '# Plan v3\n\nGreet in both repositories, tested.',
};

export const commitTexts = {
  first: 'feat: greet in both apps\n\nAdds a greeting.',
  adjusted: 'feat: greet everyone\n\nAdds a greeting to the frontend and the backend.',
};

/** Knowledge of two repositories (4 layers each, text only), then the plan session: plan, refinements, todos. */
export function planningReplies(): ScriptedReply[] {
  return [
    ...knowledgeScript(2),
    { when: { lastMessageIncludes: 'Write the technical plan' }, text: planTexts.draft },
    { when: { lastMessageIncludes: 'Mention the tests' }, text: planTexts.refined },
    { when: { lastMessageIncludes: 'Make it shorter' }, text: planTexts.chatted },
    {
      when: { lastMessageIncludes: 'Break it into an ordered list of todos' },
      text:
        'Here is the list:\n```json\n[{"title": "Frontend greeting", "description": "Create src/greeting.js", "expected_output": "a module"},' +
        ' {"title": "Backend greeting", "description": "Say hello world", "expected_output": "edited server"}]\n```',
    },
  ];
}

/**
 * The two todos with opencode's own tools (`write` a new file; `read`, then `edit` an existing one; their
 * arguments are camelCase `filePath`, `oldString`, `newString`), then the commit message and its adjustment.
 * Paths are absolute: the task directory is known once the task is initialized, and so the replies are
 * pushed then. The follow-ups match `lastRole: 'tool'`: the todos run strictly one after the other.
 */
export function codingReplies(workDir: string, tools: 'opencode' | 'keel' = 'opencode'): ScriptedReply[] {
  const greeting = join(workDir, 'frontend', 'src', 'greeting.js');
  const server = join(workDir, 'backend', 'server.js');
  const keel = tools === 'keel';
  return [
    {
      when: { lastMessageIncludes: 'Do todo 1 of 2' },
      toolCalls: [
        {
          id: 'call_write',
          name: keel ? 'write_file' : 'write',
          arguments: { [keel ? 'path' : 'filePath']: greeting, content: 'export const greeting = "hi";\n' },
        },
      ],
    },
    { when: { lastRole: 'tool' }, text: 'Wrote the greeting.' },
    {
      when: { lastMessageIncludes: 'Do todo 2 of 2' },
      toolCalls: [
        keel
          ? { id: 'call_read', name: 'read_file', arguments: { path: server } }
          : { id: 'call_read', name: 'read', arguments: { filePath: server } },
      ],
    },
    {
      when: { lastRole: 'tool' },
      toolCalls: [
        keel
          ? {
              id: 'call_edit',
              name: 'edit_file',
              arguments: { path: server, old_text: "'hello'", new_text: "'hello world'" },
            }
          : {
              id: 'call_edit',
              name: 'edit',
              arguments: { filePath: server, oldString: "'hello'", newString: "'hello world'" },
            },
      ],
    },
    { when: { lastRole: 'tool' }, text: 'Edited the server.' },
    { when: { lastMessageIncludes: 'Write the commit message' }, text: commitTexts.first },
    {
      when: { lastMessageIncludes: 'Adjust the commit message' },
      text: `\`\`\`\n${commitTexts.adjusted}\n\`\`\``,
    },
  ];
}
