import type { UserEvent } from '../../core/contracts/events';
import type { Database } from '../db/client';
import type { Logger } from '../logger';

const CHANNEL = 'artim_events';

type Listener = (event: UserEvent) => void;

/** A subscriber id no user has: it receives only the events sent to everyone. */
export const BROADCASTS_ONLY = '*broadcasts';

/**
 * Live updates across app instances: `publish` sends a PostgreSQL NOTIFY; every instance LISTENs
 * once and hands each event to the SSE streams of that user (or of everyone for broadcasts)
 * that are open on it.
 */
export interface RealtimeHub {
  publish(userId: string | '*', event: UserEvent): Promise<void>;
  subscribe(userId: string, listener: Listener): () => void;
  close(): Promise<void>;
}

export async function createRealtimeHub(database: Database, logger: Logger): Promise<RealtimeHub> {
  const listeners = new Map<string, Set<Listener>>();
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
      const { u, e } = JSON.parse(payload) as { u: string; e: UserEvent };
      if (u === '*') for (const id of listeners.keys()) deliver(id, e);
      else deliver(u, e);
    } catch (err) {
      logger.warn({ err }, 'bad realtime payload');
    }
  });
  return {
    async publish(userId, event) {
      await database.notify(CHANNEL, JSON.stringify({ u: userId, e: event }));
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
    async close() {
      await unlisten();
      listeners.clear();
    },
  };
}
