// While a request runs, ask the same service for /health again and again: the slowest answer is how long
// any other request had to wait for it (issue #28: no request blocks /health for more than 50 ms).

/** Runs `work` while polling `${base}/health`; answers the work's result and the slowest /health in ms. */
export async function healthWhile<T>(
  base: string,
  work: () => Promise<T>,
): Promise<{ result: T; slowestMs: number }> {
  let running = true;
  let slowest = 0;
  const probe = (async () => {
    while (running) {
      const started = performance.now();
      await (await fetch(`${base}/health`)).arrayBuffer();
      slowest = Math.max(slowest, performance.now() - started);
    }
  })();
  try {
    const result = await work();
    return { result, slowestMs: slowest };
  } finally {
    running = false;
    await probe;
  }
}
