/**
 * What the payment sandboxes share about work that waits: one AbortSignal per generation for
 * delayed cards and late or retried notifications (so reset() and close() stop it all at once),
 * and the delivery of a notification to the shop, in copies, retried until the shop accepts it.
 * What a notification says, and what counts as accepted, stays with each sandbox's protocol.
 */
import { setMaxListeners } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';

/** Background work of one sandbox: tracked so idle() can wait for it, stopped all at once. */
export function createBackground(label: string) {
  const inflight = new Set<Promise<unknown>>();
  // Every delayed answer, card and notification listens on the generation's signal: no listener cap.
  const newGeneration = () => {
    const controller = new AbortController();
    setMaxListeners(0, controller.signal);
    return controller;
  };
  let generation = newGeneration();

  return {
    /** Aborted by restart(): anything waiting on it gives up. */
    get signal() {
      return generation.signal;
    },
    /** Runs `work` in the background, tracked so idle() can wait for it; aborts end it quietly. */
    track(work: Promise<unknown>): Promise<unknown> {
      const p = work.catch((err: unknown) => {
        if (!(err instanceof Error && err.name === 'AbortError')) console.error(`[${label}]`, err);
      });
      inflight.add(p);
      void p.finally(() => inflight.delete(p));
      return p;
    },
    /** Waits until no tracked work is still running. */
    async idle(): Promise<void> {
      while (inflight.size) await Promise.allSettled([...inflight]);
    },
    /** Aborts all waiting work and starts a new generation. */
    restart(): void {
      generation.abort();
      generation = newGeneration();
    },
  };
}

/** One delivery of a notification, as the sandbox's control API shows it. */
export interface DeliveryAttempt<Mode extends string> {
  at: string;
  url: string | null;
  mode: Mode;
  /** HTTP status of the shop's answer; null when it did not answer or no URL was set. */
  httpStatus: number | null;
  error?: string;
}

/** True for an HTTP 2xx answer. */
export const answered2xx = (a: { httpStatus: number | null }) => a.httpStatus !== null && a.httpStatus >= 200 && a.httpStatus < 300;

export interface DeliveryOptions<A> {
  url: string;
  body: string | URLSearchParams;
  headers?: Record<string, string>;
  signal: AbortSignal;
  /** Waits between deliveries the shop did not accept; their count is the number of retries. */
  retryDelaysMs: readonly number[];
  /** A fresh record for one attempt (httpStatus null). */
  attempt: () => A;
  /** Reads the shop's answer into the record (default: discards the body). */
  read?: (res: Response, record: A) => Promise<void>;
  /** Whether the shop accepted the notification (default: any 2xx). */
  accepted?: (record: A) => boolean;
  /** Keeps the record (on the payment). */
  keep: (record: A) => void;
}

/** Delivers one copy until the shop accepts it or the retries run out; resolves with the last attempt. */
export async function deliver<A extends { httpStatus: number | null; error?: string }>(o: DeliveryOptions<A>): Promise<A> {
  const accepted = o.accepted ?? answered2xx;
  for (let attempt = 0; ; attempt++) {
    const record = o.attempt();
    try {
      const res = await fetch(o.url, {
        method: 'POST', headers: o.headers, body: o.body, signal: AbortSignal.any([o.signal, AbortSignal.timeout(5000)]),
      });
      record.httpStatus = res.status;
      if (o.read) await o.read(res, record);
      else await res.arrayBuffer().catch(() => undefined);
    } catch (err) {
      if (o.signal.aborted) throw err;
      record.error = err instanceof Error ? err.message : String(err);
    }
    o.keep(record);
    if (accepted(record) || attempt >= o.retryDelaysMs.length) return record;
    await sleep(o.retryDelaysMs[attempt], undefined, { signal: o.signal });
  }
}

export interface CopiesOptions<Mode extends string, A> {
  mode: Mode;
  url: string | null;
  /** The error recorded when there is no URL to send to. */
  noUrl: string;
  /** A record for an attempt that could not be made (no URL). */
  attempt: (url: string | null) => A;
  keep: (record: A) => void;
  settings: { lateMs: number; duplicates: number };
  signal: AbortSignal;
  /** Delivers one copy to `url` (body built before any `late` wait). */
  send: (url: string) => Promise<A>;
}

/**
 * Sends a notification as its fault mode says: `none` sends nothing, `late` waits first,
 * `duplicate` sends N copies at once, anything else once.
 */
export async function sendCopies<Mode extends string, A extends { error?: string }>(o: CopiesOptions<Mode, A>): Promise<A[]> {
  if (o.mode === 'none') return [];
  const url = o.url;
  if (!url) {
    const record = o.attempt(null);
    record.error = o.noUrl;
    o.keep(record);
    return [record];
  }
  if (o.mode === 'late') await sleep(o.settings.lateMs, undefined, { signal: o.signal });
  const copies = o.mode === 'duplicate' ? o.settings.duplicates : 1;
  return Promise.all(Array.from({ length: copies }, () => o.send(url)));
}
