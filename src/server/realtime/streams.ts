/**
 * The open live-update streams of this instance, each with the session it was opened with, so
 * that they can be ended when that session ends (sessions.ts), and so that nobody can hold an
 * unbounded number of them. Each open stream costs a socket, a subscription and a heartbeat timer.
 *
 * The caps (docs/rules.md#screens) are such that no visitor can use them to silence others:
 * - an account over its cap loses its own oldest stream;
 * - an address over its cap (an office, a carrier's NAT) takes the oldest stream of the account
 *   that holds the most streams there; when that is the new stream's own account, its own oldest
 *   stream on the address goes, and the new stream is refused if it would be that one itself;
 * - past the instance's cap new streams are refused.
 * A refused stream is answered 429 TOO_MANY_STREAMS with a Retry-After.
 */
export const STREAM_LIMITS = {
  /** A customer's tabs and devices together; the oldest is the least likely to be looked at. */
  perUser: 8,
  /** Everyone behind one address together. */
  perAddress: 32,
  /** Every stream of this instance together. */
  perInstance: 5000,
} as const;

export type StreamLimits = { readonly [K in keyof typeof STREAM_LIMITS]: number };

/** How long a browser refused a stream is asked to wait before it tries again. */
export const STREAM_RETRY_AFTER_SECONDS = 30;

/**
 * Why the server ends a stream, told to the browser in a `closed` event:
 * - `too_many_streams`: a newer stream of the same account (or on a crowded address) took its place;
 * - `session_ended`: the session is gone (signed out, password changed, revoked, expired); only
 *   another session may connect again;
 * - `session_changed`: the account's roles changed, or the session could not be confirmed;
 *   connecting again gives the stream the account's current identity.
 */
export type CloseReason = 'too_many_streams' | 'session_ended' | 'session_changed';

export interface StreamHandle {
  /** Ends the stream; `reason` is told to the browser before the connection closes. */
  close(reason: CloseReason): void;
  /** Holds events back (while the session is checked again) until the returned function is called. */
  hold(): () => void;
  /** Tells the browser that events may have been missed, so that it reads its data again. */
  resync(): void;
}

export interface OpenStream {
  readonly user: string;
  readonly address: string;
  /** The session token the stream was opened with. */
  readonly token: string;
  /** The account's roles when the stream was opened. */
  readonly roles: readonly string[];
  readonly handle: StreamHandle;
}

export type OpenResult = { ok: true; forget: () => void } | { ok: false; refused: 'address' | 'instance' };

export interface StreamRegistry {
  /**
   * Registers an open stream, closing the streams the caps take for it; or refuses it (nothing
   * is closed then). `forget` is called when the stream ends.
   */
  open(stream: Omit<OpenStream, 'handle'>, handle: StreamHandle): OpenResult;
  /** The open streams, oldest first: all, an account's or a session's. */
  list(filter?: { user?: string; token?: string }): OpenStream[];
  /** Ends a stream for `reason`, if it is still open. */
  close(stream: OpenStream, reason: CloseReason): void;
  count(filter?: { user?: string; address?: string }): number;
}

export function createStreamRegistry(limits: StreamLimits = STREAM_LIMITS): StreamRegistry {
  // Insertion order is age order: the first entries of a Set are the oldest.
  const all = new Set<OpenStream>();
  const byUser = new Map<string, Set<OpenStream>>();
  const byAddress = new Map<string, Set<OpenStream>>();
  const byToken = new Map<string, Set<OpenStream>>();
  const indexes = (s: OpenStream) =>
    [
      [byUser, s.user],
      [byAddress, s.address],
      [byToken, s.token],
    ] as const;
  const add = (s: OpenStream) => {
    all.add(s);
    for (const [map, key] of indexes(s)) {
      let set = map.get(key);
      if (!set) map.set(key, (set = new Set()));
      set.add(s);
    }
  };
  const remove = (s: OpenStream) => {
    if (!all.delete(s)) return false;
    for (const [map, key] of indexes(s)) {
      const set = map.get(key);
      set?.delete(s);
      if (set?.size === 0) map.delete(key);
    }
    return true;
  };

  /**
   * Which stream on a full address makes room for one more of `user`: the oldest of the account
   * holding the most streams there, the new stream's account counted with it, and that account
   * first on a tie. Null when that would be the new stream itself.
   */
  const roomOnAddress = (here: OpenStream[], user: string): OpenStream | null => {
    const counts = new Map<string, number>();
    for (const s of here) counts.set(s.user, (counts.get(s.user) ?? 0) + 1);
    counts.set(user, (counts.get(user) ?? 0) + 1);
    const most = Math.max(...counts.values());
    if (counts.get(user) === most) return here.find((s) => s.user === user) ?? null;
    return here.find((s) => counts.get(s.user) === most)!;
  };

  return {
    open(info, handle) {
      const stream: OpenStream = { ...info, roles: [...info.roles], handle };
      const taken: OpenStream[] = [];
      const own = byUser.get(stream.user);
      if (own && own.size >= limits.perUser) taken.push(own.values().next().value!);
      const here = [...(byAddress.get(stream.address) ?? [])].filter((s) => !taken.includes(s));
      if (here.length + 1 > limits.perAddress) {
        const room = roomOnAddress(here, stream.user);
        if (!room) return { ok: false, refused: 'address' };
        taken.push(room);
      }
      if (all.size - taken.length + 1 > limits.perInstance) return { ok: false, refused: 'instance' };
      for (const s of taken) {
        remove(s);
        s.handle.close('too_many_streams');
      }
      add(stream);
      return { ok: true, forget: () => void remove(stream) };
    },
    list(filter = {}) {
      if (filter.token !== undefined) return [...(byToken.get(filter.token) ?? [])];
      if (filter.user !== undefined) return [...(byUser.get(filter.user) ?? [])];
      return [...all];
    },
    close(stream, reason) {
      if (remove(stream)) stream.handle.close(reason);
    },
    count(filter = {}) {
      if (filter.user !== undefined) return byUser.get(filter.user)?.size ?? 0;
      if (filter.address !== undefined) return byAddress.get(filter.address)?.size ?? 0;
      return all.size;
    },
  };
}
