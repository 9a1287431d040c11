// Runs every benchmark in turn. Each prints JSON lines of figures; none ever fails a build.
import { spawnSync } from 'node:child_process';

for (const bench of [
  'bench/agent-step.ts',
  'bench/event-append.ts',
  'bench/search.ts',
  'bench/web-stream.ts',
  'bench/startup.ts',
  'bench/workbench-stream.ts',
  'bench/workbench-task-list.ts',
  'bench/workbench-directories.ts',
  'bench/workbench-workspace.ts',
  'bench/workbench-setup-reuse.ts',
  'bench/workbench-review-paint.ts',
  'bench/workbench-scale.ts',
  'bench/workbench-stall.ts',
  'bench/fleet.ts',
  'packages/desktop/bench/start.ts',
]) {
  const result = spawnSync(process.execPath, [bench], { stdio: 'inherit' });
  if (result.status !== 0) console.log(JSON.stringify({ bench, error: `exited with ${result.status}` }));
}
