import { z } from 'zod';
import { maxEntriesPerCategory, ProjectMemory } from '../memory/index.ts';
import { defineTool } from './tool.ts';

const schema = z.strictObject({
  category: z
    .string()
    .regex(/^[a-z0-9][a-z0-9_-]{0,39}$/, 'a short lower-case name, e.g. conventions, commands, decisions')
    .describe('Where it belongs: e.g. conventions, commands, architecture, decisions, preferences.'),
  content: z
    .string()
    .min(1)
    .max(2000)
    .describe('The fact to remember, complete on its own, in one or two sentences.'),
});

/** Saves a fact to the project's memory, which every later run in this project sees in its prompt. */
export const saveMemoryTool = defineTool({
  name: 'save_memory',
  description:
    'Remember a fact for later tasks in this project: a convention, a command that works, a decision, ' +
    'a user preference. Later runs see the project memory in their instructions. Save only what stays ' +
    `true and is not obvious from the code; each category keeps its latest ${maxEntriesPerCategory}.`,
  schema,
  async execute(ctx, args) {
    const { kept, dropped } = await new ProjectMemory(ctx.workdir).save(args.category, args.content);
    return `Saved to project memory (${args.category}: ${kept} of ${maxEntriesPerCategory}${dropped ? `, the oldest ${dropped} dropped` : ''}).`;
  },
});
