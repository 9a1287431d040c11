import type { ScriptedReply } from '@keel/testkit';
import { knowledgeScript } from './harness.ts';

export const githubUrl = 'https://github.com/acme/backend.git';

/** The scripted model of the end-to-end flow: knowledge of two repositories, then every stage. */
export const flowScript: ScriptedReply[] = [
  ...knowledgeScript(2),
  {
    when: { lastMessageIncludes: 'Write the technical plan' },
    text: '# Plan\n\nAdd a greeting to both repositories.',
  },
  {
    when: { lastMessageIncludes: 'Mention the tests' },
    text: '# Plan v2\n\nAdd a greeting to both repositories, with tests.',
  },
  {
    when: { lastMessageIncludes: 'Make it shorter' },
    text: '# Plan v3\n\nGreet in both repositories, tested.',
  },
  {
    when: { lastMessageIncludes: 'Break it into an ordered list of todos' },
    text:
      'Here is the list:\n```json\n[{"title": "Frontend greeting", "description": "Create src/greeting.js", "expected_output": "a module"},' +
      ' {"title": "Backend greeting", "description": "Say hello world", "expected_output": "edited server"}]\n```',
  },
  {
    when: { lastMessageIncludes: 'Do todo 1 of 2' },
    toolCalls: [
      {
        name: 'write_file',
        arguments: { path: 'frontend/src/greeting.js', content: 'export const greeting = "hi";\n' },
      },
    ],
  },
  { when: { lastRole: 'tool' }, text: 'Wrote the greeting.' },
  // The frontend's own test (a real check, run after the todo) fails on "hi": one repair turn fixes it.
  {
    when: { lastMessageIncludes: 'These checks fail after your changes' },
    toolCalls: [
      {
        name: 'write_file',
        arguments: { path: 'frontend/src/greeting.js', content: 'export const greeting = "hello";\n' },
      },
    ],
  },
  { when: { lastRole: 'tool' }, text: 'Fixed the greeting.' },
  {
    when: { lastMessageIncludes: 'Do todo 2 of 2' },
    toolCalls: [
      {
        name: 'edit_file',
        arguments: { path: 'backend/server.js', old_text: "'hello'", new_text: "'hello world'" },
      },
    ],
  },
  { when: { lastRole: 'tool' }, text: 'Edited the server.' },
  {
    when: { lastMessageIncludes: 'Write the commit message' },
    text: 'feat: greet in both apps\n\nAdds a greeting.',
  },
  {
    when: { lastMessageIncludes: 'Adjust the commit message' },
    text: '```\nfeat: greet everyone\n\nAdds a greeting to the frontend and the backend.\n```',
  },
  {
    when: { lastMessageIncludes: 'Keep the subject' },
    text: 'feat: greet everyone\n\nAdds a greeting to the frontend and the backend: both apps, subject kept.',
  },
];
