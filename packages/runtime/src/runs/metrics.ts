import type { RunStore, RunUsage } from '../store/index.ts';

export interface RunMetrics {
  run_id: string;
  status: string;
  /** From the first claim to the end (or to now while it runs); null before it started. */
  duration_ms: number | null;
  usage: RunUsage;
  cost_usd: number;
  /** Run retries (attempts after the first) plus model and node retries announced as `retry` events. */
  retries: { run: number; events: number };
  steps: Record<string, number>;
  /** Tool calls by tool name. */
  tools: Record<string, number>;
  gates: { passed: number; failed: number };
  artifacts: number;
  approvals: number;
  checkpoints: number;
}

export async function computeMetrics(store: RunStore, runId: string, now = Date.now()): Promise<RunMetrics> {
  const run = await store.getRun(runId);
  const [steps, artifacts, approvals, checkpoints] = await Promise.all([
    store.listSteps(runId),
    store.listArtifacts(runId),
    store.listApprovals({ run_id: runId, limit: 1000 }),
    store.listCheckpoints(runId),
  ]);
  const tools: Record<string, number> = {};
  let retryEvents = 0;
  for (let after = 0; ; ) {
    const page = await store.listEvents(runId, { after, limit: 1000 });
    if (page.length === 0) break;
    for (const { event } of page) {
      if (event.type === 'retry') retryEvents += 1;
      if (event.type === 'tool_call') {
        const name = String(event.tool_name);
        tools[name] = (tools[name] ?? 0) + 1;
      }
    }
    after = page.at(-1)!.seq;
  }
  const stepCounts: Record<string, number> = {};
  const gates = { passed: 0, failed: 0 };
  for (const step of steps) {
    stepCounts[step.kind] = (stepCounts[step.kind] ?? 0) + 1;
    if (step.kind === 'gate' && step.detail.passed === true) gates.passed += 1;
    if (step.kind === 'gate' && step.detail.passed === false) gates.failed += 1;
  }
  const start = run.started_at ? Date.parse(run.started_at) : null;
  const end = run.ended_at ? Date.parse(run.ended_at) : now;
  return {
    run_id: run.id,
    status: run.status,
    duration_ms: start === null ? null : Math.max(0, end - start),
    usage: run.usage,
    cost_usd: run.cost_usd,
    retries: { run: run.attempt - 1, events: retryEvents },
    steps: stepCounts,
    tools,
    gates,
    artifacts: artifacts.length,
    approvals: approvals.length,
    checkpoints: checkpoints.length,
  };
}
