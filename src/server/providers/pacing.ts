import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Spaces the calls this process makes to one provider: at most `perSecond` start in any second,
 * and after a 429 none starts until the provider's `Retry-After` has passed. Calls wait their
 * turn in the order they asked for it; a pacer with `perSecond` 0 only honours the holds.
 */
export interface Pacer {
  /** Resolves when the next call may start. */
  take(): Promise<void>;
  /** No call starts for `ms` from now (the provider said it is busy). */
  hold(ms: number): void;
  /** Calls made since the start, and how many of them were turned away with 429. */
  readonly stats: { calls: number; rateLimited: number };
}

export function createPacer(perSecond = 0): Pacer {
  // 3 % of slack, so calls that travel a little faster than the one before stay in their second.
  const gap = perSecond > 0 ? 1030 / perSecond : 0;
  let next = 0;
  const stats = { calls: 0, rateLimited: 0 };
  return {
    stats,
    async take() {
      stats.calls++;
      const now = performance.now();
      const at = Math.max(now, next);
      next = at + gap;
      if (at > now) await sleep(at - now);
    },
    hold(ms) {
      stats.rateLimited++;
      next = Math.max(next, performance.now() + ms);
    },
  };
}
