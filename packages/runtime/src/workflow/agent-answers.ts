import { z } from 'zod';
import { KeelError } from '../errors/index.ts';
import type { GraphTask } from './definition.ts';
import { graphProblems } from './graph-problems.ts';
import { graphTaskSchema, maxGraphTasks } from './workflow-schema.ts';

// Agents answer in text; a planner's plan and a reviewer's verdict are JSON inside that text.

/** A specialist as the planner sees it: the capability tasks name, and what it is for. */
export interface SpecialistInfo {
  name: string;
  description: string;
}

/** What the planner is asked: the request, the specialists it may route to, and the answer's form. */
export function plannerPrompt(request: string, specialists: readonly SpecialistInfo[]): string {
  return [
    'Break the request below into a graph of tasks for specialist agents, then answer with the graph only.',
    '',
    'Specialists (a task names one as its capability):',
    ...specialists.map((each) => `- ${each.name}: ${each.description}`),
    '',
    'Answer with one JSON object and nothing else:',
    '{"tasks": [{"id": "t1", "capability": "research", "task": "what to do, complete on its own", "depends_on": []}]}',
    `- At most ${maxGraphTasks} tasks; ids are short (letters, digits, _ or -) and unique.`,
    '- depends_on lists the tasks whose results this task needs; tasks without a path between them run at once.',
    '- Each task gets the results of the tasks it depends on, nothing else: say everything it needs to know.',
    '',
    '# Request',
    request,
  ].join('\n');
}

const planSchema = z.object({ tasks: z.array(graphTaskSchema).min(1).max(maxGraphTasks) });

/** The planner's graph, checked; an answer without a valid one is an AGENT_ERROR naming what is wrong. */
export function parsePlan(answer: string): GraphTask[] {
  const parsed = planSchema.safeParse(jsonIn(answer));
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join('.') || '(plan)'}: ${issue.message}`,
    );
    throw new KeelError('AGENT_ERROR', `The planner's answer is not a task graph: ${problems.join('; ')}`, {
      problems,
    });
  }
  const problems = graphProblems(parsed.data.tasks);
  if (problems.length) {
    throw new KeelError('AGENT_ERROR', `The planner's task graph is invalid: ${problems.join('; ')}`, {
      problems,
    });
  }
  return parsed.data.tasks;
}

/** What a gate's reviewer is told to answer with. */
export const verdictInstructions = [
  'Answer with one JSON object and nothing else:',
  '{"verdict": "pass" or "fail", "reasons": ["each reason in a sentence"]}',
  'Fail only for problems that must be fixed; say exactly what and where.',
].join('\n');

const verdictSchema = z.object({
  verdict: z.enum(['pass', 'fail']),
  reasons: z.array(z.string()).max(50).default([]),
});

/** A reviewer's verdict; an answer without one counts as a failure that says so. */
export function parseVerdict(answer: string): { passed: boolean; reasons: string[] } {
  const parsed = verdictSchema.safeParse(jsonIn(answer));
  if (!parsed.success) {
    return { passed: false, reasons: ['The reviewer did not answer with a verdict in the required form.'] };
  }
  return { passed: parsed.data.verdict === 'pass', reasons: parsed.data.reasons };
}

/** The JSON object in an answer: a fenced block's, or the text from its first `{` to its last `}`. */
function jsonIn(answer: string): unknown {
  const fenced = /```(?:json)?\s*\n([\s\S]*?)\n```/.exec(answer)?.[1];
  const text = fenced ?? answer.slice(answer.indexOf('{'), answer.lastIndexOf('}') + 1);
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
