// Listing tasks that carry images: `GET /api/tasks` with 20 tasks of 4 × 3 MiB images each. Reference in
// the same run: what the listing did before (issue #28), every row read whole and its images parsed, on the
// same database file. Figures: the request's time, and how much the process's peak memory grew for each.
//   GET /api/tasks: target ≤ 100 ms and no growth of the peak RSS worth the images (they are never loaded).
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { createWorkbench } from '@keel/workbench';
import { healthWhile } from './health-probe.ts';
import { report } from './report.ts';

const tasks = Number(process.env.KEEL_BENCH_TASKS ?? 20);
const imagesPerTask = 4;
const imageBytes = 3 * 1024 * 1024;

/** The process's peak resident memory so far, in MB (it only ever grows). */
const peakMb = () => process.resourceUsage().maxRSS / 1024;

const home = await mkdtemp(join(tmpdir(), 'keel-bench-task-list-'));
const repo = join(home, 'app');
execFileSync('git', ['init', '-q', '-b', 'main', repo]);
await writeFile(join(repo, 'README.md'), '# app\n');
execFileSync('git', ['-C', repo, 'add', '.']);
execFileSync('git', ['-C', repo, '-c', 'user.name=b', '-c', 'user.email=b@b', 'commit', '-qm', 'init']);
// No model: the project and its tasks wait, which is all a listing needs.
const wbHome = join(home, 'wb');
const workbench = await createWorkbench({ home: wbHome, env: { ...process.env, WORKBENCH_HOME: wbHome } });
const base = await workbench.listen(0);
const post = async (path: string, body: unknown) => {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as { id: string };
};

try {
  const project = await post('/api/projects', {
    name: 'bench',
    repositories: [{ path: repo, type: 'custom' }],
  });
  for (let t = 0; t < tasks; t++) {
    const images = Array.from({ length: imagesPerTask }, (_, i) => ({
      data: Buffer.alloc(imageBytes, (t * imagesPerTask + i) % 251).toString('base64'),
      media_type: 'image/png',
      filename: `screen-${i}.png`,
    }));
    await post('/api/tasks', { project_id: project.id, description: `Task ${t}`, images });
  }

  // The listing as served: warm once, then timed.
  await (await fetch(`${base}/api/tasks`)).json();
  const listPeakBefore = peakMb();
  const listStarted = performance.now();
  const { result: listed, slowestMs } = await healthWhile(
    base,
    async () => (await (await fetch(`${base}/api/tasks`)).json()) as { tasks: unknown[] },
  );
  const listMs = performance.now() - listStarted;
  const listGrowth = peakMb() - listPeakBefore;

  // The reference: every row read whole and its images parsed, as the listing did before.
  const db = new DatabaseSync(join(wbHome, 'workbench.db'), { readOnly: true });
  const referencePeakBefore = peakMb();
  const referenceStarted = performance.now();
  const rows = db.prepare('SELECT * FROM tasks ORDER BY created_at, id').all() as { images: string }[];
  const parsedImages = rows.reduce((sum, row) => sum + (JSON.parse(row.images) as unknown[]).length, 0);
  const referenceMs = performance.now() - referenceStarted;
  const referenceGrowth = peakMb() - referencePeakBefore;
  db.close();

  const details = { tasks: listed.tasks.length, images: parsedImages, image_mib: 3 };
  report({
    bench: 'workbench-task-list',
    figure: `GET /api/tasks, ${tasks} tasks with ${imagesPerTask} × 3 MiB images each`,
    value: listMs,
    unit: 'ms',
    target: '≤ 100 ms',
    reference: { name: 'reading every row whole, images parsed (the listing before)', value: referenceMs },
    details,
  });
  report({
    bench: 'workbench-task-list',
    figure: 'slowest GET /health answered while listing',
    value: slowestMs,
    unit: 'ms',
    target: '≤ 50 ms',
    details,
  });
  report({
    bench: 'workbench-task-list',
    figure: 'growth of the peak RSS while listing',
    value: listGrowth,
    unit: 'MB',
    target: 'nothing worth the images',
    reference: {
      name: 'reading every row whole, images parsed (the listing before)',
      value: referenceGrowth,
    },
    details,
  });
} finally {
  await workbench.close();
  await rm(home, { recursive: true, force: true });
}
