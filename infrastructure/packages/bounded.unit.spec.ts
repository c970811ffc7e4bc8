import { describe, expect, it } from 'vitest';
import { oneAtATime } from './bounded.ts';

describe('oneAtATime', () => {
  it('runs at most the limit at once, the rest in order, and every call gets its own answer', async () => {
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const work = oneAtATime(2, async (n: number) => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      order.push(n);
      running -= 1;
      return n * 10;
    });
    const answers = await Promise.all([1, 2, 3, 4, 5].map((n) => work(n)));
    expect(answers).toEqual([10, 20, 30, 40, 50]);
    expect(most).toBe(2);
    expect(order.slice(2)).toEqual([3, 4, 5]);
  });

  it('frees its place when a call fails', async () => {
    const work = oneAtATime(1, async (fail: boolean) => {
      if (fail) throw new Error('razpakiranje ni uspelo');
      return 'ok';
    });
    await expect(work(true)).rejects.toThrow('razpakiranje ni uspelo');
    await expect(work(false)).resolves.toBe('ok');
  });
});
