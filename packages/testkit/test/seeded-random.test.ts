import { describe, expect, test } from 'vitest';
import { seededRandom } from '../src/index.ts';

describe('seededRandom', () => {
  test('the same seed gives the same sequence; another seed another one', () => {
    const draw = (seed: number) => {
      const random = seededRandom(seed);
      return Array.from({ length: 20 }, () => random.next());
    };
    expect(draw(7)).toEqual(draw(7));
    expect(draw(7)).not.toEqual(draw(8));
    expect(draw(7).every((value) => value >= 0 && value < 1)).toBe(true);
  });

  test('int stays in its bounds and reaches both; pick takes from the list and refuses an empty one', () => {
    const random = seededRandom(1);
    const ints = Array.from({ length: 2000 }, () => random.int(3, 6));
    expect(new Set(ints)).toEqual(new Set([3, 4, 5, 6]));
    const picked = new Set(Array.from({ length: 200 }, () => random.pick(['a', 'b', 'c'])));
    expect(picked).toEqual(new Set(['a', 'b', 'c']));
    expect(() => random.pick([])).toThrow(RangeError);
  });
});
