import type { EventBody } from '../events/index.ts';
import type { JsonObject, JsonValue, StepKind } from '../store/index.ts';
import type { SpecialistInfo } from './agent-answers.ts';
import type { WorkflowNode } from './definition.ts';
import type { NodeState } from './state.ts';

/** The node of one kind, as its handler gets it. */
export type NodeOf<K extends WorkflowNode['kind']> = Extract<WorkflowNode, { kind: K }>;

/** What the scheduler needs from the run around it; the runtime provides it. */
export interface SchedulerHooks {
  /** The run's input (the run request): `{{input.prompt}}` and friends. */
  input: Record<string, JsonValue>;
  emit(event: EventBody): Promise<void>;
  startStep(nodeId: string, kind: StepKind, detail?: JsonObject): Promise<string>;
  finishStep(
    stepId: string,
    status: 'succeeded' | 'failed' | 'waiting',
    extra?: { error?: unknown; detail?: JsonObject },
  ): Promise<void>;
  /** Saves the state as a checkpoint; then pauses the run if a pause was asked for. */
  checkpoint(stepId: string | null): Promise<void>;
  /** Runs an agent node from its saved state (or afresh) to its answer. */
  runAgent(node: NodeOf<'agent'>, nodeState: NodeState, prompt: string, signal: AbortSignal): Promise<string>;
  runTool(name: string, params: unknown, signal: AbortSignal): Promise<string>;
  /** Runs a gate's command as exec_command would (policy, sandbox, timeout); its exit code and output. */
  runCheck(command: string, signal: AbortSignal): Promise<{ exit_code: number | null; output: string }>;
  /** The specialists an agent node may name and a task graph routes to (built-in and configured). */
  specialists: readonly SpecialistInfo[];
  /** Records an approval request; returns its id. */
  requestApproval(nodeId: string, stepId: string, prompt: string): Promise<string>;
  /** The decision on an approval, or null while it is pending. */
  approvalDecision(id: string): Promise<{ approved: boolean; reason: string | null } | null>;
  saveArtifact(input: {
    nodeId: string;
    stepId: string | null;
    name: string;
    kind: string;
    data: JsonValue;
  }): Promise<void>;
}
