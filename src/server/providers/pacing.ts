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

/**
 * Calls start one `gap` apart (a second, with 6 % of slack, over `perSecond`: a call that reaches
 * the provider up to 60 ms later than it started — a busy process, the network — still leaves the
 * calls after it in the provider's next second), counted from when the call
 * before actually started, not from the turn it was given: turns handed out ahead of time would
 * all start together after the process was busy for a moment (their timers fire late), and a
 * provider counting its calls per second answers that bunch with 429.
 */
export function createPacer(perSecond = 0): Pacer {
  const gap = perSecond > 0 ? 1060 / perSecond : 0;
  /** When the last call started. */
  let last = -Infinity;
  let heldUntil = 0;
  let queue: Promise<void> = Promise.resolve();
  const stats = { calls: 0, rateLimited: 0 };

  const waitFor = (now: number) => Math.max(heldUntil, last + gap) - now;
  const turn = async (): Promise<void> => {
    // Checked again after each sleep: a hold may have come meanwhile.
    for (let wait = waitFor(performance.now()); wait > 0; wait = waitFor(performance.now())) await sleep(wait);
    last = performance.now();
  };

  return {
    stats,
    take() {
      stats.calls++;
      const mine = queue.then(turn);
      queue = mine;
      return mine;
    },
    hold(ms) {
      stats.rateLimited++;
      heldUntil = Math.max(heldUntil, performance.now() + ms);
    },
  };
}
