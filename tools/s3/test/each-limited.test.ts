/** eachLimited: the bound on requests in flight that uploads, downloads and deletions rely on. */
import { describe, expect, it } from 'vitest';
import { eachLimited } from '../src/each-limited.ts';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('eachLimited', () => {
  it('does every item, never more than the limit at once', async () => {
    let running = 0;
    let most = 0;
    const done: number[] = [];
    await eachLimited(
      Array.from({ length: 20 }, (_, index) => index),
      3,
      async (item) => {
        running += 1;
        most = Math.max(most, running);
        await tick();
        done.push(item);
        running -= 1;
      },
    );
    expect(done.sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, index) => index));
    expect(most).toBe(3);
  });

  it('does nothing for no items', async () => {
    let calls = 0;
    await eachLimited([], 4, async () => {
      calls += 1;
    });
    expect(calls).toBe(0);
  });

  it('throws the first failure once the running ones settle, and starts no more', async () => {
    const started: number[] = [];
    const settled: number[] = [];
    const run = eachLimited([0, 1, 2, 3, 4, 5, 6, 7], 2, async (item) => {
      started.push(item);
      await tick();
      if (item === 1) throw new Error('item 1 failed');
      await tick();
      settled.push(item);
    });
    await expect(run).rejects.toThrow('item 1 failed');
    // Item 0 was running beside the failing one and finished; nothing after the failure started.
    expect(settled).toEqual([0]);
    expect(started).toEqual([0, 1]);
  });
});
