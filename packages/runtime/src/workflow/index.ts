export type { SpecialistInfo } from './agent-answers.ts';
export type {
  Budgets,
  GateReviewer,
  GraphTask,
  Predicate,
  RetryPolicy,
  Workflow,
  WorkflowNode,
} from './definition.ts';
export { agentWorkflow, allNodes } from './definition.ts';
export { evaluate, outputText, render } from './expressions.ts';
export { parseWorkflow } from './parse-workflow.ts';
export { Scheduler } from './scheduler.ts';
export type { SchedulerHooks } from './scheduler-hooks.ts';
export type { NodeState, SchedulerState } from './state.ts';
export { newSchedulerState } from './state.ts';
export { SuspendRun } from './suspend.ts';
export { workflowSchema } from './workflow-schema.ts';
