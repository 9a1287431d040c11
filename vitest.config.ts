import { openSync, readdirSync, readFileSync, readSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// Tests import workspace packages from their TypeScript sources (each export's `@keel/source` condition),
// so they run what is in src/ without a build; spawned programs (bin/) run the built files. Aliases, not
// resolve conditions: those also change how third-party packages resolve.
function sourceAliases(): { find: RegExp; replacement: string }[] {
  const aliases: { find: RegExp; replacement: string }[] = [];
  for (const folder of readdirSync('packages')) {
    const manifest = JSON.parse(readFileSync(join('packages', folder, 'package.json'), 'utf8')) as {
      name: string;
      exports?: Record<string, string | Record<string, string>>;
    };
    for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
      const source = typeof target === 'object' ? target['@keel/source'] : undefined;
      if (!source) continue;
      // Exact ids only: '@keel/runtime' must not also rewrite '@keel/runtime/launcher'.
      const id = join(manifest.name, subpath).replace(/[/.]/g, '\\$&');
      aliases.push({
        find: new RegExp(`^${id}$`),
        replacement: join(import.meta.dirname, 'packages', folder, source),
      });
    }
  }
  return aliases;
}

/** Whether a test file says, in its first lines, that it runs for minutes (`// long-running: why`). */
function longRunning(file: string): boolean {
  const head = Buffer.alloc(2048);
  const fd = openSync(file, 'r');
  const read = readSync(fd, head, 0, head.length, 0);
  return /^\/\/ long-running:/m.test(head.subarray(0, read).toString('utf8'));
}

/**
 * The files marked long-running first, then Vitest's own order. A fresh clone (CI) has no durations cached,
 * and Vitest then starts the largest files first: the few small files that run for minutes (crash trials,
 * fuzzing, third-party agents) started last and ran alone at the end, adding minutes to the suite.
 */
class LongRunningFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const long = sorted.filter((spec) => longRunning(spec.moduleId));
    return [...long, ...sorted.filter((spec) => !long.includes(spec))];
  }
}

export default defineConfig({
  resolve: { alias: sourceAliases() },
  test: {
    include: ['packages/*/test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    sequence: { sequencer: LongRunningFirst },
    // Vitest's default is one worker less than the cores: a single worker on a 2-core CI machine, while
    // most test files spend their time waiting on git, agents, browsers and servers in other processes.
    // One more worker than the cores keeps those waits overlapped (the suite took 40 min serially here).
    maxWorkers: availableParallelism() + 1,
    // expect.poll waits for a condition (a page's URL, a field filled by a fetch); its default of 1 s is a
    // guess about speed that a loaded machine breaks. The condition still ends the wait the moment it holds.
    expect: { poll: { timeout: 15_000 } },
  },
});
