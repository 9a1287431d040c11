import { z } from 'zod';
import { InvalidParamsError } from '../errors/index.ts';
import { defineTool } from './tool.ts';

export const questionSchema = z.strictObject({
  text: z.string().min(1).describe('The question, complete on its own.'),
  options: z
    .array(z.string().min(1))
    .max(10)
    .optional()
    .describe('The choices to offer; the user may also answer in their own words.'),
});

/**
 * Asks the user a structured multiple-choice question. Inside a run the agent intercepts it: the run
 * records the question, waits (holding no worker) and continues with the answer as the tool result.
 * Outside a run there is nobody to ask.
 */
export const questionTool = defineTool({
  name: 'question',
  traits: { kind: 'think', readOnly: true },
  description:
    'Ask the user a question and wait for the answer. Use it when a decision is theirs to make ' +
    '(which approach, which file, whether to go on). Offer choices in `options` when there are a few.',
  schema: questionSchema,
  async execute() {
    throw new InvalidParamsError(
      'The question tool needs a user to answer it: it works only inside an agent run, which waits for the answer.',
      { tool: 'question' },
    );
  },
});
