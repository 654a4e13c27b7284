import { describe, expect, it } from 'vitest';
import { createPacer } from './pacing';

/** The most starts within any `windowMs` (a provider counting its calls per second sees this many at worst). */
const busiest = (starts: number[], windowMs: number) => Math.max(...starts.map((s) => starts.filter((t) => t >= s && t < s + windowMs).length));

describe('provider pacer', () => {
  it('starts at most perSecond calls in any second, also after the process was busy for a while', async () => {
    const pacer = createPacer(20);
    const starts: number[] = [];
    const calls = Array.from({ length: 45 }, (_, i) =>
      pacer.take().then(() => {
        starts.push(performance.now());
        // The process is busy for 300 ms after its 5th call: the turns due meanwhile come late.
        if (i === 4) for (const until = performance.now() + 300; performance.now() < until; );
      }),
    );
    await Promise.all(calls);
    expect(starts).toHaveLength(45);
    expect(busiest(starts, 1000)).toBeLessThanOrEqual(20);
  });

  it('leaves room for a call that reaches the provider up to 50 ms after it started, as a busy process or the network makes it', async () => {
    const pacer = createPacer(2);
    const arrivals: number[] = [];
    // The first call leaves 50 ms late; the others as soon as they start.
    await Promise.all([50, 0, 0, 0].map((late) => pacer.take().then(() => arrivals.push(performance.now() + late))));
    expect(busiest(arrivals.sort((a, b) => a - b), 1000)).toBeLessThanOrEqual(2);
  });

  it('waits out a hold (the provider answered 429) before the next call', async () => {
    const pacer = createPacer(0);
    await pacer.take();
    pacer.hold(200);
    const before = performance.now();
    await pacer.take();
    expect(performance.now() - before).toBeGreaterThanOrEqual(190);
    expect(pacer.stats).toEqual({ calls: 2, rateLimited: 1 });
  });
});
