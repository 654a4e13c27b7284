import type { UserEvent } from '../../core/contracts/events';
import { CACHE_CHANNEL } from '../cache';
import { noticeParts, type Database } from '../db/client';
import type { Logger } from '../logger';
import { createStreamRegistry, STREAM_LIMITS, type StreamLimits, type StreamRegistry } from './streams';

const CHANNEL = 'artim_events';

type Listener = (event: UserEvent) => void;

/** A subscriber id no user has: it receives only the events sent to everyone. */
export const BROADCASTS_ONLY = '*broadcasts';

/**
 * What may take away a stream's right to its events, heard from every instance: a session changed
 * or ended, an account's roles (or name, e-mail) changed — the `session:<token>` and `user:<id>`
 * notices the database's triggers send on the caches' channel (cache.ts) — and a `gap`: the
 * listening connection was lost and is back, so any notice or event may have been missed.
 */
export type HubChange = { kind: 'session'; token: string } | { kind: 'user'; userId: string } | { kind: 'gap' };

/**
 * Live updates across app instances: `publish` sends a PostgreSQL NOTIFY; every instance LISTENs
 * once and hands each event to the SSE streams of that user (or of everyone for broadcasts)
 * that are open on it.
 */
export interface RealtimeHub {
  publish(userId: string | '*', event: UserEvent): Promise<void>;
  subscribe(userId: string, listener: Listener): () => void;
  /** Hears session and account changes, and gaps; returns the function that stops. */
  watch(listener: (change: HubChange) => void): () => void;
  /** The SSE streams open on this instance, with their caps. */
  readonly streams: StreamRegistry;
  close(): Promise<void>;
}

export async function createRealtimeHub(database: Database, logger: Logger, opts: { streamLimits?: StreamLimits } = {}): Promise<RealtimeHub> {
  const listeners = new Map<string, Set<Listener>>();
  const watchers = new Set<(change: HubChange) => void>();
  const tell = (change: HubChange) => {
    for (const w of [...watchers]) {
      try {
        w(change);
      } catch (err) {
        logger.warn({ err }, 'realtime watcher failed');
      }
    }
  };
  const deliver = (userId: string, event: UserEvent) => {
    for (const l of listeners.get(userId) ?? []) {
      try {
        l(event);
      } catch (err) {
        logger.warn({ err }, 'realtime listener failed');
      }
    }
  };
  const unlisten = await database.listen(CHANNEL, (payload) => {
    try {
      const parsed = JSON.parse(payload) as { u: string; e: UserEvent } | { u: string; e: UserEvent }[];
      for (const { u, e } of Array.isArray(parsed) ? parsed : [parsed]) {
        if (u === '*') for (const id of listeners.keys()) deliver(id, e);
        else deliver(u, e);
      }
    } catch (err) {
      logger.warn({ err }, 'bad realtime payload');
    }
  }, { onReconnect: () => tell({ kind: 'gap' }) });
  // Both channels share the one listening connection, so a session's notice arrives before any
  // event published after the change that sent it.
  const unlistenChanges = await database.listen(CACHE_CHANNEL, (notice) => {
    const [kind, ...rest] = notice.split(':');
    const key = rest.join(':');
    if (!key) return;
    if (kind === 'session') tell({ kind: 'session', token: key });
    else if (kind === 'user') tell({ kind: 'user', userId: key });
  });

  // Events published in the same few milliseconds travel in one NOTIFY: PostgreSQL serializes
  // the commits of notifying transactions, so one per event would queue busy writers behind
  // each other. A payload stays under the 8000-byte limit (`noticeParts`).
  let queue: { item: string; done: () => void; fail: (err: unknown) => void }[] = [];
  let scheduled = false;
  const flush = async () => {
    scheduled = false;
    const batch = queue;
    queue = [];
    let at = 0;
    for (const items of noticeParts(batch.map((b) => b.item), 2)) {
      const part = batch.slice(at, (at += items.length));
      try {
        await database.notify(CHANNEL, items.length === 1 ? items[0]! : `[${items.join(',')}]`);
        for (const p of part) p.done();
      } catch (err) {
        for (const p of part) p.fail(err);
      }
    }
  };
  return {
    publish(userId, event) {
      return new Promise<void>((done, fail) => {
        queue.push({ item: JSON.stringify({ u: userId, e: event }), done, fail });
        if (!scheduled) {
          scheduled = true;
          setTimeout(() => void flush(), 5);
        }
      });
    },
    subscribe(userId, listener) {
      let set = listeners.get(userId);
      if (!set) listeners.set(userId, (set = new Set()));
      set.add(listener);
      return () => {
        set.delete(listener);
        if (set.size === 0) listeners.delete(userId);
      };
    },
    watch(listener) {
      watchers.add(listener);
      return () => void watchers.delete(listener);
    },
    streams: createStreamRegistry(opts.streamLimits ?? STREAM_LIMITS),
    async close() {
      await unlisten();
      await unlistenChanges();
      listeners.clear();
      watchers.clear();
    },
  };
}
