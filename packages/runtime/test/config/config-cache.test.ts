import { mkdtemp, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import {
  ConfigCache,
  configCache,
  configFileAt,
  loadConfig,
  readConfigFile,
} from '../../src/config/index.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'keel-config-cache-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the configuration cache', () => {
  test('answers from memory for 60 seconds, then reads the file again', async () => {
    let now = 1_000_000;
    const cache = new ConfigCache({ now: () => now });
    const path = join(dir, 'config.json');
    await writeFile(path, JSON.stringify({ model: 'first' }));
    let reads = 0;
    const read = (file: string) => {
      reads++;
      return readConfigFile(file);
    };
    expect(cache.get(path, read).model).toBe('first');
    expect(cache.get(path, read).model).toBe('first');
    expect(reads).toBe(1);
    // A change the file's size and time do not show (same length, time put back) waits for the minute.
    const { mtime } = await stat(path);
    await writeFile(path, JSON.stringify({ model: 'later' }));
    await utimes(path, mtime, mtime);
    now += 59_999;
    expect(cache.get(path, read).model).toBe('first');
    now += 1;
    expect(cache.get(path, read).model).toBe('later');
    expect(reads).toBe(2);
  });

  test('an edit that changes the file is seen at once; a missing file is an empty config', async () => {
    const cache = new ConfigCache();
    const path = join(dir, 'config.json');
    expect(cache.get(path, readConfigFile)).toEqual({});
    await writeFile(path, JSON.stringify({ model: 'a-longer-name' }));
    expect(cache.get(path, readConfigFile).model).toBe('a-longer-name');
  });

  test("the process's own writes (ConfigFile: PUT /config, keel config set) invalidate it", async () => {
    const runtimeDir = join(dir, 'home');
    const workdir = join(dir, 'work');
    const file = configFileAt(join(runtimeDir, 'config.json'));
    await file.update(() => ({ model: 'one' }));
    expect(loadConfig(runtimeDir, workdir).model).toBe('one');
    const { mtime } = await stat(join(runtimeDir, 'config.json'));
    await file.update(() => ({ model: 'two' }));
    // Even were the stamp unchanged, the write itself drops the entry.
    await utimes(join(runtimeDir, 'config.json'), mtime, mtime);
    expect(loadConfig(runtimeDir, workdir).model).toBe('two');
    configCache.invalidate();
  });
});
