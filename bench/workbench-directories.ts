// Browsing a folder of 20,000 sub-folders: `GET /api/directories` (the repository picker). Reference in the
// same run: `readdir` of the same folder alone, in process. Figures: the request's time, the longest the
// service's event loop was held meanwhile (other requests wait that long), and the growth of the peak RSS.
//   target: the event loop never held for more than 50 ms (a /health meanwhile answers within it).
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createWorkbench } from '@keel/workbench';
import { healthWhile } from './health-probe.ts';
import { report } from './report.ts';

const folders = Number(process.env.KEEL_BENCH_FOLDERS ?? 20_000);
const peakMb = () => process.resourceUsage().maxRSS / 1024;

const home = await mkdtemp(join(tmpdir(), 'keel-bench-directories-'));
const big = join(home, 'big');
await mkdir(big);
for (let start = 0; start < folders; start += 500) {
  await Promise.all(
    Array.from({ length: Math.min(500, folders - start) }, (_, i) => mkdir(join(big, `folder-${start + i}`))),
  );
}
const wbHome = join(home, 'wb');
const workbench = await createWorkbench({ home: wbHome, env: { ...process.env, WORKBENCH_HOME: wbHome } });
const base = await workbench.listen(0);

try {
  const url = `${base}/api/directories?path=${encodeURIComponent(big)}`;
  await (await fetch(url)).json();
  const delay = monitorEventLoopDelay({ resolution: 10 });
  const peakBefore = peakMb();
  delay.enable();
  const started = performance.now();
  const { result: listing, slowestMs } = await healthWhile(
    base,
    async () => (await (await fetch(url)).json()) as { entries: unknown[]; total: number },
  );
  const ms = performance.now() - started;
  delay.disable();
  const growth = peakMb() - peakBefore;

  const referenceStarted = performance.now();
  const names = await readdir(big, { withFileTypes: true });
  const referenceMs = performance.now() - referenceStarted;

  const details = { folders, listed: listing.entries.length, total: listing.total };
  report({
    bench: 'workbench-directories',
    figure: `GET /api/directories of a folder with ${folders} sub-folders`,
    value: ms,
    unit: 'ms',
    reference: { name: `readdir of the folder alone (${names.length} entries)`, value: referenceMs },
    details,
  });
  report({
    bench: 'workbench-directories',
    figure: 'longest hold of the event loop during that request',
    value: delay.max / 1e6,
    unit: 'ms',
    target: '≤ 50 ms',
    details,
  });
  report({
    bench: 'workbench-directories',
    figure: 'slowest GET /health answered meanwhile',
    value: slowestMs,
    unit: 'ms',
    target: '≤ 50 ms',
    details,
  });
  report({
    bench: 'workbench-directories',
    figure: 'growth of the peak RSS during that request',
    value: growth,
    unit: 'MB',
    details,
  });
} finally {
  await workbench.close();
  await rm(home, { recursive: true, force: true });
}
