import type { Approval, Artifact, Checkpoint, Run, RunMetrics, Step, TimelineEntry } from '@keel/runtime';
import { terminalSafe } from './terminal-safe.ts';
import { truncate } from './truncate.ts';

// Records hold text from models, tools and repositories (prompts, errors, names): each line is printed
// terminal-safe.

/** `2025-01-02T03:04:05.678Z` → `2025-01-02 03:04:05` (UTC, as stored). */
export function formatTime(iso: string | null): string {
  return iso ? iso.slice(0, 19).replace('T', ' ') : '-';
}

/** One line of `keel runs list`: id, status, created, prompt. */
export function formatRun(run: Run): string {
  // A sub-agent's run shows its type and task (its prompt may hold an earlier attempt's output).
  const what = run.agent ? `↳ ${run.agent.type}: ${run.agent.task.replace(/\s+/g, ' ')}` : run.prompt;
  return terminalSafe(
    [run.id, run.status.padEnd(9), formatTime(run.created_at), truncate(what, 60)].join('  '),
  );
}

/** `keel runs show`: the run's state, then its steps in start order. */
export function formatRunDetail(run: Run, steps: Step[]): string {
  const lines = [
    `Run        ${run.id}`,
    // A retried run keeps its last attempt's error after succeeding: show it only while it applies.
    `Status     ${run.status}${run.error && run.status !== 'succeeded' ? ` (${run.error.code}: ${run.error.message})` : ''}`,
    `Prompt     ${truncate(run.prompt.replace(/\s+/g, ' '), 100)}`,
    `Workdir    ${run.workdir}`,
    `Session    ${run.session_id ?? '-'}`,
    `Attempt    ${run.attempt}`,
    `Events     ${run.last_seq}`,
    `Usage      ${run.usage.input_tokens} in, ${run.usage.output_tokens} out, ${run.usage.total_tokens} total · $${run.cost_usd.toFixed(4)}`,
    `Created    ${formatTime(run.created_at)}`,
    `Started    ${formatTime(run.started_at)}`,
    `Ended      ${formatTime(run.ended_at)}`,
  ];
  if (run.forked_from)
    lines.push(`Forked     from ${run.forked_from.run_id} at ${run.forked_from.checkpoint_id}`);
  if (run.agent) {
    const spawner = run.parent_run_id ? `spawned by ${run.parent_run_id}` : 'spawned over the API';
    lines.push(
      `Sub-agent  ${run.agent.agent_id} (${run.agent.type}), ${spawner}, timeout ${run.agent.timeout_seconds} s`,
    );
    if (run.agent.resumes) lines.push(`Resumes    ${run.agent.resumes}`);
  }
  if (run.lease_owner)
    lines.push(`Worker     ${run.lease_owner} (lease until ${formatTime(run.lease_expires_at)})`);
  lines.push('', steps.length ? 'Steps' : 'Steps      none yet');
  for (const step of steps) lines.push(`  ${formatStep(step)}`);
  return terminalSafe(lines.join('\n'));
}

function formatStep(step: Step): string {
  return [
    step.id,
    step.kind.padEnd(10),
    step.status.padEnd(9),
    `node ${step.node_id}`,
    `attempt ${step.attempt}`,
    formatTime(step.started_at),
    step.error ? `${step.error.code}: ${truncate(step.error.message, 60)}` : '',
  ]
    .join('  ')
    .trimEnd();
}

/** `keel runs metrics` as text. */
export function formatMetrics(metrics: RunMetrics): string {
  const counts = (record: Record<string, number>) =>
    Object.entries(record)
      .map(([name, count]) => `${name} ${count}`)
      .join(', ') || 'none';
  const { usage } = metrics;
  return terminalSafe(
    [
      `Run          ${metrics.run_id} (${metrics.status})`,
      `Duration     ${metrics.duration_ms === null ? '-' : `${(metrics.duration_ms / 1000).toFixed(1)} s`}`,
      `Tokens       ${usage.input_tokens} in, ${usage.output_tokens} out, ${usage.total_tokens} total`,
      `Cost         $${metrics.cost_usd.toFixed(4)}`,
      `Retries      run ${metrics.retries.run}, model/node ${metrics.retries.events}`,
      `Steps        ${counts(metrics.steps)}`,
      `Tools        ${counts(metrics.tools)}`,
      `Gates        ${metrics.gates.passed} passed, ${metrics.gates.failed} failed`,
      `Approvals    ${metrics.approvals}`,
      `Artifacts    ${metrics.artifacts}`,
      `Checkpoints  ${metrics.checkpoints}`,
    ].join('\n'),
  );
}

/** One line of `keel timeline checkpoints`: id, event cursor, the step it follows, time. */
export function formatCheckpoint(checkpoint: Omit<Checkpoint, 'state'>): string {
  return terminalSafe(
    [
      checkpoint.id,
      `seq ${String(checkpoint.seq).padEnd(5)}`,
      (checkpoint.step_id ?? '-').padEnd(30),
      formatTime(checkpoint.created_at),
    ].join('  '),
  );
}

/** One line of `keel timeline show`. */
export function formatTimelineEntry(entry: TimelineEntry): string {
  return terminalSafe(timelineLine(entry));
}

function timelineLine(entry: TimelineEntry): string {
  const head = `${formatTime(entry.at)}  ${entry.type.padEnd(10)}  ${entry.id}`;
  switch (entry.type) {
    case 'step':
      return `${head}  ${entry.kind} ${entry.status} (node ${entry.node_id})${entry.checkpoint_id ? ` → ${entry.checkpoint_id}` : ''}`;
    case 'checkpoint':
      return `${head}  seq ${entry.seq}${entry.step_id ? ` after ${entry.step_id}` : ''}`;
    case 'approval':
      return `${head}  ${entry.status}: ${truncate(entry.prompt, 80)}`;
    case 'artifact':
      return `${head}  ${entry.kind} ${entry.name} (${entry.media_type}, ${entry.size} bytes)`;
    case 'sub_agent':
      return `${head}  ${entry.agent_type} ${entry.agent_id} ${entry.status}: ${truncate(entry.task, 60)}`;
    default:
      return head;
  }
}

/** One line of `keel approvals list`. */
export function formatApproval(approval: Approval): string {
  return terminalSafe(
    [
      approval.id,
      approval.status.padEnd(9),
      approval.run_id,
      formatTime(approval.created_at),
      truncate(approval.prompt, 70),
    ].join('  '),
  );
}

/** One line of `keel artifacts list`. */
export function formatArtifact(artifact: Artifact): string {
  return terminalSafe(
    [
      artifact.id,
      artifact.kind.padEnd(8),
      `${artifact.size} B`.padStart(9),
      artifact.media_type,
      formatTime(artifact.created_at),
      artifact.name,
    ].join('  '),
  );
}
