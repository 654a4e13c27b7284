/**
 * The open live-update streams of this instance, so that no account and no address can hold an
 * unbounded number of them: a new stream over a cap closes the oldest one of that account or
 * address. Each open stream costs a socket, a subscription and a heartbeat timer.
 */
export const STREAM_LIMITS = {
  /** A customer's tabs and devices together; the oldest is the least likely to be looked at. */
  perUser: 8,
  /** Everyone behind one address together (an office, a mobile carrier's NAT). */
  perAddress: 32,
} as const;

export interface StreamHandle {
  /** Ends the stream; `reason` is told to the browser before the connection closes. */
  close(reason: 'too_many_streams'): void;
}

interface Entry {
  user: string;
  address: string;
  handle: StreamHandle;
}

export interface StreamRegistry {
  /** Registers an open stream, closing the oldest ones over a cap; returns the function that forgets it. */
  open(user: string, address: string, handle: StreamHandle): () => void;
  count(filter?: { user?: string; address?: string }): number;
}

export function createStreamRegistry(limits: { perUser: number; perAddress: number } = STREAM_LIMITS): StreamRegistry {
  // Insertion order is age order: the first entries of a Set are the oldest.
  const byUser = new Map<string, Set<Entry>>();
  const byAddress = new Map<string, Set<Entry>>();
  const add = (map: Map<string, Set<Entry>>, key: string, entry: Entry) => {
    let set = map.get(key);
    if (!set) map.set(key, (set = new Set()));
    set.add(entry);
    return set;
  };
  const remove = (entry: Entry) => {
    for (const [map, key] of [
      [byUser, entry.user],
      [byAddress, entry.address],
    ] as const) {
      const set = map.get(key);
      set?.delete(entry);
      if (set?.size === 0) map.delete(key);
    }
  };
  const trim = (set: Set<Entry>, limit: number) => {
    while (set.size > limit) {
      const oldest = set.values().next().value as Entry;
      remove(oldest);
      oldest.handle.close('too_many_streams');
    }
  };

  return {
    open(user, address, handle) {
      const entry: Entry = { user, address, handle };
      trim(add(byUser, user, entry), limits.perUser);
      trim(add(byAddress, address, entry), limits.perAddress);
      return () => remove(entry);
    },
    count(filter = {}) {
      if (filter.user !== undefined) return byUser.get(filter.user)?.size ?? 0;
      if (filter.address !== undefined) return byAddress.get(filter.address)?.size ?? 0;
      let n = 0;
      for (const set of byUser.values()) n += set.size;
      return n;
    },
  };
}
