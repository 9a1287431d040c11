import { z } from 'zod';
import { ToolError } from '../errors/index.ts';
import { maxEntriesPerCategory, memoryCategories } from '../memory/index.ts';
import { defineTool } from './tool.ts';

const schema = z.strictObject({
  category: z
    .enum(memoryCategories)
    .describe(
      'conventions (how code is written here), patterns (how things are done: commands, workflows), ' +
        'issues (known problems and their workarounds), decisions (choices made and why).',
    ),
  content: z
    .string()
    .min(1)
    .max(2000)
    .describe('The fact to remember, complete on its own, in one or two sentences.'),
});

/** Saves a fact to the project's memory, which every later run in this project sees in its prompt. */
export const saveMemoryTool = defineTool({
  name: 'save_memory',
  traits: { kind: 'other', readOnly: false },
  description:
    'Remember a fact for later tasks in this project: a convention, a command that works, a decision, ' +
    'a user preference. Later runs see the project memory in their instructions. Save only what stays ' +
    `true and is not obvious from the code; each category keeps its latest ${maxEntriesPerCategory}.`,
  schema,
  async execute(ctx, args) {
    if (!ctx.memory)
      throw new ToolError('save_memory needs a runtime: project memory is kept in its directory.');
    const { kept, dropped } = await ctx.memory.save(args.category, args.content);
    return `Saved to project memory (${args.category}: ${kept} of ${maxEntriesPerCategory}${dropped ? `, the oldest ${dropped} dropped` : ''}).`;
  },
});
