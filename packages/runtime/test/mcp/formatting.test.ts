import { describe, expect, test } from 'vitest';
import { describeServerTools, maxMcpResultChars, resultText } from '../../src/mcp/index.ts';

describe('the tool listing the model reads', () => {
  const tools = [
    {
      name: 'search',
      description: 'Searches the issues.\nSupports GitHub query syntax, e.g. is:open label:bug.',
      inputSchema: {
        type: 'object' as const,
        properties: {
          query: { type: 'string', description: 'What to look for' },
          state: { type: 'string', enum: ['open', 'closed'], default: 'open' },
          labels: { type: 'array', items: { type: 'string' } },
          page: { type: ['integer', 'null'] },
          sort: {
            anyOf: [{ type: 'string' }, { type: 'object', properties: { field: { type: 'string' } } }],
          },
          options: {
            type: 'object',
            properties: { exact: { type: 'boolean' }, limit: { type: 'number' } },
            required: ['exact'],
          },
        },
        required: ['query'],
      },
    },
    { name: 'ping', inputSchema: { type: 'object' as const } },
  ];

  test('signatures read like TypeScript: optional marks, defaults, enums, arrays, unions, nested objects', () => {
    expect(describeServerTools('Server issues (http)', tools, 'brief')).toBe(
      [
        'Server issues (http): 2 tools',
        '- search(query: string, state?: "open" | "closed" = "open", labels?: string[], page?: integer | null, ' +
          'sort?: string | { field?: string }, options?: { exact: boolean, limit?: number }): Searches the issues.',
        '- ping()',
      ].join('\n'),
    );
  });

  test('the full listing keeps the whole description and describes each argument that has a description', () => {
    expect(describeServerTools('Server issues (http)', tools.slice(0, 1), 'full')).toBe(
      [
        'Server issues (http): 1 tool',
        '- search(query: string, state?: "open" | "closed" = "open", labels?: string[], page?: integer | null, ' +
          'sort?: string | { field?: string }, options?: { exact: boolean, limit?: number }): Searches the issues.\n' +
          'Supports GitHub query syntax, e.g. is:open label:bug.',
        '    query: What to look for',
      ].join('\n'),
    );
  });

  test('a long first line is cut in the overview', () => {
    const long = 'x'.repeat(500);
    const listing = describeServerTools(
      'S',
      [{ name: 't', description: long, inputSchema: { type: 'object' } }],
      'brief',
    );
    expect(listing).toBe(`S: 1 tool\n- t(): ${'x'.repeat(159)}…`);
  });
});

describe('the text of a tool result', () => {
  test('text blocks are joined; other content is summarised on a line of its own', () => {
    expect(
      resultText({
        content: [
          { type: 'text', text: 'first' },
          { type: 'image', data: 'A'.repeat(4000), mimeType: 'image/png' },
          { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
          {
            type: 'resource',
            resource: { uri: 'file:///notes.md', mimeType: 'text/markdown', text: '# Notes' },
          },
          { type: 'resource', resource: { uri: 'file:///logo.png', blob: 'AAAAAAAA' } },
          { type: 'resource_link', uri: 'demo://doc/1', name: 'Doc 1', description: 'the first doc' },
          { type: 'text', text: 'last' },
        ],
      }),
    ).toBe(
      [
        'first',
        '[image: image/png, 2.9 KiB]',
        '[audio: audio/wav, 3 bytes]',
        '[resource file:///notes.md (text/markdown)]\n# Notes',
        '[resource file:///logo.png: binary, 6 bytes]',
        '[resource link: Doc 1 <demo://doc/1>: the first doc]',
        'last',
      ].join('\n'),
    );
  });

  test('structured content stands in when there are no blocks, and an empty result says so', () => {
    expect(resultText({ content: [], structuredContent: { temperature: 21 } })).toBe('{"temperature":21}');
    expect(resultText({ content: [] })).toBe('(the tool returned no content)');
  });

  test('a very long result is cut at the end, saying how much was dropped', () => {
    const text = resultText({ content: [{ type: 'text', text: 'y'.repeat(maxMcpResultChars + 10) }] });
    expect(text).toBe(
      `${'y'.repeat(maxMcpResultChars)}\n[… 10 of ${maxMcpResultChars + 10} characters cut from the end …]`,
    );
  });
});
