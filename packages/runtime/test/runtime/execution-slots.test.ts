// The slots behind RuntimeOptions.maxRunning: first come first served, a slot given back once, and a
// waiter whose signal aborts leaves the line without taking one.
import { expect, test } from 'vitest';
import { ExecutionSlots } from '../../src/runtime/execution-slots.ts';

test('slots are handed out in the order they were asked for, each given back once', async () => {
  const slots = new ExecutionSlots(1);
  const first = await slots.take();
  const order: string[] = [];
  const inLine = (name: string) =>
    slots.take().then((giveBack) => {
      order.push(name);
      return giveBack;
    });
  const second = inLine('second');
  const third = inLine('third');
  expect(slots.waiting).toBe(2);
  first!();
  first!(); // a second give-back of the same slot frees nothing more
  (await second)!();
  (await third)!();
  expect(order).toEqual(['second', 'third']);
  expect(slots.waiting).toBe(0);
  // Every slot is free again: one can be taken at once, and only one.
  const again = await slots.take();
  const abort = new AbortController();
  const blocked = slots.take(abort.signal);
  abort.abort();
  expect(await blocked).toBeNull();
  again!();
});

test('a waiter that gives up leaves the line: the next one gets the slot', async () => {
  const slots = new ExecutionSlots(1);
  const held = await slots.take();
  const abort = new AbortController();
  const leaving = slots.take(abort.signal);
  const staying = slots.take();
  abort.abort();
  expect(await leaving).toBeNull();
  expect(slots.waiting).toBe(1);
  held!();
  expect(typeof (await staying)).toBe('function');
  expect(await slots.take(AbortSignal.abort())).toBeNull();
});
