// One figure per JSON line: what was measured, its target, and the reference measured in the same run with
// the ratio between them (these machines are shared and noisy, so a ratio says more than a number alone).
// A benchmark only ever prints: nothing here passes or fails.

export interface Figure {
  bench: string;
  /** What was measured, in words. */
  figure: string;
  value: number;
  unit: string;
  /** The goal this figure is held against, in words (e.g. "≥ 50,000 events/s"); omitted when there is none. */
  target?: string;
  /** A reference measured in the same run, in the same unit. */
  reference?: { name: string; value: number };
  /** Anything else worth printing (sizes, counts, losses). */
  details?: Record<string, unknown>;
}

/** Prints a figure; the ratio is value ÷ reference, rounded to two decimals. */
export function report(figure: Figure): void {
  const { reference } = figure;
  const ratio = reference && reference.value !== 0 ? round(figure.value / reference.value, 2) : undefined;
  console.log(
    JSON.stringify({
      bench: figure.bench,
      figure: figure.figure,
      value: round(figure.value, figure.value < 100 ? 1 : 0),
      unit: figure.unit,
      ...(figure.target ? { target: figure.target } : {}),
      ...(reference
        ? {
            reference: reference.name,
            reference_value: round(reference.value, reference.value < 100 ? 1 : 0),
          }
        : {}),
      ...(ratio === undefined ? {} : { ratio }),
      ...figure.details,
    }),
  );
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

/** Events (or items) per second for `count` done in `ms` milliseconds. */
export function perSecond(count: number, ms: number): number {
  return count / (ms / 1000);
}

/** The median of a few timings (ms), after a warm-up run that is not counted. */
export async function medianMs(runs: number, work: () => Promise<unknown> | unknown): Promise<number> {
  await work();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}
