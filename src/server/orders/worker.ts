import { setTimeout as sleep } from 'node:timers/promises';
import type { Database } from '../db/client';
import { sendWaitingCancels } from './cancels';
import { DEFAULT_DRIP_MINUTE_MS, settleDripParents, startDueRuns } from './dripfeed';
import { ORDERS_CHANNEL, type OrderRow, type OrdersDeps } from './service';
import { claimPending, createProviderIdWriter, submitClaimed } from './submission';

export interface SubmissionWorkerOptions {
  /** Orders sent to the provider at once by this worker. */
  concurrency: number;
  /** How often the worker looks for waiting orders when nothing woke it (ms). */
  pollMs?: number;
  /** Length of a drip-feed interval minute in ms (shorter in tests); default 60 000. */
  dripMinuteMs?: number;
}

export interface SubmissionWorker {
  /** Orders this worker has sent (answered or not) since it started. */
  readonly sent: number;
  /** Looks for waiting orders now. */
  wake(): void;
  /** Stops claiming and waits for the orders in flight. */
  stop(): Promise<void>;
}

/**
 * Carries out the cancels asked for while these orders were being sent (docs/rules.md#cancel);
 * its failures are logged, the reconcile job's sweep tries again.
 */
async function cancelsAfterSend(deps: OrdersDeps, rows: OrderRow[]): Promise<void> {
  try {
    await sendWaitingCancels(deps, rows.map((r) => r.id));
  } catch (err) {
    deps.logger.warn({ err }, 'sending waiting cancels failed');
  }
}

/**
 * Sends one claimed order; then, when a cancel was asked for while it was on its way, that cancel
 * is carried out (the provider id writer does it for the orders it stores).
 */
async function sendClaimed(deps: OrdersDeps, order: OrderRow, store?: ReturnType<typeof createProviderIdWriter>): Promise<OrderRow> {
  const row = await submitClaimed(deps, order, store);
  if (!store || row.providerOrderId === null) await cancelsAfterSend(deps, [row]);
  return row;
}

/** Claims and sends one batch of waiting orders, `concurrency` at a time; returns how many were claimed. */
export async function submitPending(deps: OrdersDeps, opts: { limit?: number; concurrency?: number } = {}): Promise<number> {
  const claimed = await claimPending(deps.db, opts.limit ?? 100);
  let next = 0;
  const lane = async () => {
    while (next < claimed.length) await sendClaimed(deps, claimed[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(claimed.length, opts.concurrency ?? 16) }, lane));
  return claimed.length;
}

/**
 * The submission worker: sends accepted orders to the provider in the background, oldest first,
 * at most `concurrency` at once. Every instance may run one; an order is claimed by exactly one
 * of them (claimPending), and what happens to the claim after a crash is reconciliation's job.
 * Accepted orders wake it at once (NOTIFY on the orders channel, see `enableSubmissionWake`),
 * and so does the return of a lost listening connection; it also looks every `pollMs`. The provider's pace is kept by the provider's
 * pacer: a 429 holds every call of this process for the `Retry-After` it asked for, and the
 * order it turned away goes back in line. A cancel asked for while an order was on its way is
 * carried out once its send is answered (`sendWaitingCancels`).
 */
export async function startSubmissionWorker(deps: OrdersDeps, database: Database, opts: SubmissionWorkerOptions): Promise<SubmissionWorker> {
  const pollMs = opts.pollMs ?? 1000;
  let inFlight = 0;
  let sent = 0;
  let stopped = false;
  let signal: (() => void) | null = null;
  let pending = false;
  const wake = () => {
    pending = true;
    signal?.();
  };
  // After the listening connection was lost, wake-up notices may have been missed: look now.
  const unlisten = await database.listen(ORDERS_CHANNEL, wake, { onReconnect: wake });
  const flights = new Set<Promise<unknown>>();
  const store = createProviderIdWriter(deps.db, 10, (rows) => cancelsAfterSend(deps, rows));
  // While busy, lanes are refilled a quarter at a time (or after 50 ms): one claim per several orders.
  const refillAt = Math.max(1, Math.floor(opts.concurrency / 4));
  let lastClaim = 0;
  // Drip-feed runs that are due are written here, just before claiming (so a run written is sent
  // in the same turn); parents whose runs are all final are settled less often.
  let lastDrip = 0;
  let lastSettle = 0;
  const dripTurn = async () => {
    const now = Date.now();
    if (now - lastDrip < Math.min(250, pollMs)) return;
    lastDrip = now;
    try {
      await startDueRuns(deps, { minuteMs: opts.dripMinuteMs ?? DEFAULT_DRIP_MINUTE_MS });
      if (now - lastSettle >= 2000) {
        lastSettle = now;
        await settleDripParents(deps);
      }
    } catch (err) {
      deps.logger.warn({ err }, 'writing drip-feed runs failed');
    }
  };

  const loop = async () => {
    while (!stopped) {
      pending = false;
      const room = opts.concurrency - inFlight;
      const gather = room > 0 && room < refillAt && Date.now() - lastClaim < 50;
      await dripTurn();
      if (room > 0 && !gather) {
        lastClaim = Date.now();
        try {
          const batch = await claimPending(deps.db, room);
          for (const order of batch) {
            inFlight++;
            const flight = sendClaimed(deps, order, store)
              .catch((err) => deps.logger.error({ err, order: order.id }, 'order submission failed'))
              .finally(() => {
                inFlight--;
                sent++;
                flights.delete(flight);
                wake();
              });
            flights.add(flight);
          }
        } catch (err) {
          deps.logger.warn({ err }, 'claiming orders to submit failed');
          await sleep(pollMs);
        }
      }
      // Then wait to be woken: by an accepted order, a lane coming free, or the poll.
      if (stopped) break;
      await new Promise<void>((resolve) => {
        if (pending) return resolve();
        const timer = setTimeout(resolve, gather ? 50 : pollMs);
        signal = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      signal = null;
    }
  };
  const running = loop();

  return {
    get sent() {
      return sent;
    },
    wake,
    async stop() {
      stopped = true;
      signal?.();
      await running;
      await Promise.allSettled([...flights]);
      await unlisten();
    },
  };
}
