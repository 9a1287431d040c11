import type { Runtime } from '@keel/runtime';

export interface RunTotals {
  total_runs: number;
  total_tokens: number;
  total_cost_usd: number;
}

const pageSize = 100;

/**
 * Sums every run of the runtime's store. The store contract has no aggregate query, so this pages
 * through all runs, newest first: O(runs) reads per call.
 */
export async function sumRuns(runtime: Runtime): Promise<RunTotals> {
  const totals = { total_runs: 0, total_tokens: 0, total_cost_usd: 0 };
  let before: string | undefined;
  for (;;) {
    const page = await runtime.runs.list({ limit: pageSize, ...(before ? { before } : {}) });
    for (const run of page) {
      totals.total_runs += 1;
      totals.total_tokens += run.usage.total_tokens;
      totals.total_cost_usd += run.cost_usd;
    }
    before = page.at(-1)?.id;
    if (page.length < pageSize || before === undefined) break;
  }
  // Sums of float prices drift (0.1 + 0.2); a millionth of a dollar is finer than any price.
  return { ...totals, total_cost_usd: Math.round(totals.total_cost_usd * 1e6) / 1e6 };
}
