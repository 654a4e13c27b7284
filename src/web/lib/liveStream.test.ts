import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { UserEvent } from '../../core/contracts/events';

/** One request to /api/events that the test answers by hand: events, an end, or nothing. */
class FakeConnection {
  private controller!: ReadableStreamDefaultController<Uint8Array>;
  readonly body = new ReadableStream<Uint8Array>({
    start: (c) => void (this.controller = c),
    cancel: () => void (this.closed = true),
  });
  closed = false;
  constructor(
    readonly url: string,
    readonly init: RequestInit,
  ) {
    init.signal?.addEventListener('abort', () => {
      this.closed = true;
      this.controller.error(new DOMException('The operation was aborted.', 'AbortError'));
    });
  }
  emit(type: string, data: unknown = {}) {
    this.controller.enqueue(new TextEncoder().encode(`event: ${type}\ndata: ${JSON.stringify(data)}\n\n`));
  }
  /** The connection drops without a word from the server. */
  drop() {
    this.controller.close();
  }
}

/** A stand-in for the server's /api/events: answers 200 with a stream, or the refusal queued next. */
const server = {
  connections: [] as FakeConnection[],
  refusals: [] as { status: number; retryAfter?: string }[],
  fetch(url: string, init: RequestInit) {
    const connection = new FakeConnection(url, init);
    server.connections.push(connection);
    const refusal = server.refusals.shift();
    if (refusal) {
      return Promise.resolve(
        new Response(JSON.stringify({ error: { code: refusal.status === 401 ? 'UNAUTHENTICATED' : 'TOO_MANY_STREAMS' } }), {
          status: refusal.status,
          headers: refusal.retryAfter ? { 'retry-after': refusal.retryAfter } : {},
        }),
      );
    }
    return Promise.resolve(new Response(connection.body, { status: 200, headers: { 'content-type': 'text/event-stream' } }));
  },
};

const latest = () => server.connections.at(-1)!;
/** Lets the stream's reads and the client's reactions run (no time passes). */
const settle = () => vi.advanceTimersByTimeAsync(0);
/** Waits (in fake time, by half seconds) until a new request is made; returns how long that took. */
async function waitForNextRequest(limitMs = 120_000): Promise<number> {
  const count = server.connections.length;
  let waited = 0;
  while (server.connections.length === count && waited < limitMs) {
    await vi.advanceTimersByTimeAsync(500);
    waited += 500;
  }
  return waited;
}

/** A listener that notes the connection's ups and downs and the session's ends. */
async function watching() {
  const { subscribeLiveEvents } = await import('./liveStream');
  const seen = { ended: 0, statuses: [] as boolean[] };
  const off = subscribeLiveEvents(
    () => {},
    (connected) => seen.statuses.push(connected),
    () => seen.ended++,
  );
  return { subscribeLiveEvents, seen, off };
}

describe('live events connection', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    server.connections = [];
    server.refusals = [];
    vi.stubGlobal('fetch', vi.fn(server.fetch));
    vi.resetModules();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('tells a listener that joined late, once the stream is ready, that it may have missed events; the others hear nothing', async () => {
    const { subscribeLiveEvents } = await import('./liveStream');
    const heard: string[] = [];
    const offA = subscribeLiveEvents(() => {}, (up) => heard.push(`a:${up}`));
    const offB = subscribeLiveEvents(() => {}, (up) => heard.push(`b:${up}`), undefined, true);
    await settle();
    expect(heard).toEqual([]);
    latest().emit('ready');
    await settle();
    expect(heard).toEqual(['b:true']);
    // Joining an open, ready stream: told at once.
    const offC = subscribeLiveEvents(() => {}, (up) => heard.push(`c:${up}`), undefined, true);
    await settle();
    expect(heard).toEqual(['b:true', 'c:true']);
    // Told once: a later ready of the same connection tells no one.
    latest().emit('ready');
    await settle();
    expect(heard).toEqual(['b:true', 'c:true']);
    offA();
    offB();
    offC();
  });

  it('shares one connection and hands every event type to every listener', async () => {
    const { subscribeLiveEvents } = await import('./liveStream');
    const a: UserEvent[] = [];
    const b: UserEvent[] = [];
    const offA = subscribeLiveEvents((e) => a.push(e));
    const offB = subscribeLiveEvents((e) => b.push(e));
    expect(server.connections).toHaveLength(1);
    expect(latest().url).toBe('/api/events');
    await settle();
    latest().emit('ready');
    latest().emit('ticket', { type: 'ticket', ticketId: 't1' });
    latest().emit('admin_ticket', { type: 'admin_ticket', ticketId: 't2' });
    latest().emit('ping');
    await settle();
    expect(a).toEqual([
      { type: 'ticket', ticketId: 't1' },
      { type: 'admin_ticket', ticketId: 't2' },
    ]);
    expect(b).toEqual(a);
    offA();
    expect(latest().closed).toBe(false);
    offB();
    expect(latest().closed).toBe(true);
  });

  it('waits instead of reconnecting at once when the server closed the stream for a newer one', async () => {
    const { SUPERSEDED_RECONNECT_MS } = await import('./liveStream');
    const { seen, off } = await watching();
    await settle();
    latest().emit('closed', { reason: 'too_many_streams' });
    await settle();
    expect(latest().closed).toBe(true);
    expect(seen.statuses).toEqual([false]);
    await vi.advanceTimersByTimeAsync(SUPERSEDED_RECONNECT_MS - 500);
    expect(server.connections).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(500);
    expect(server.connections).toHaveLength(2);
    off();
  });

  it('reconnects after 1, 2, 5, then every 10 seconds, and starts over once connected', async () => {
    const { seen, off } = await watching();
    await settle();
    const waits: number[] = [];
    for (let i = 0; i < 5; i++) {
      latest().drop();
      waits.push(await waitForNextRequest());
    }
    expect(waits).toEqual([1000, 2000, 5000, 10_000, 10_000]);

    // Connected again: the schedule starts from 1 s, and listeners hear that the stream is back.
    await settle();
    latest().emit('ready');
    await settle();
    expect(seen.statuses.at(-1)).toBe(true);
    const count = server.connections.length;
    latest().drop();
    await vi.advanceTimersByTimeAsync(999);
    expect(server.connections).toHaveLength(count);
    await vi.advanceTimersByTimeAsync(1);
    expect(server.connections).toHaveLength(count + 1);
    off();
  });

  it('does not reconnect once nobody listens', async () => {
    const { subscribeLiveEvents } = await import('./liveStream');
    const off = subscribeLiveEvents(() => {});
    await settle();
    latest().drop();
    await settle();
    off();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(server.connections).toHaveLength(1);
  });

  it('refused for too many streams (429), waits the Retry-After the server asked for instead of its own second', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    const { subscribeLiveEvents } = await import('./liveStream');
    server.refusals.push({ status: 429, retryAfter: '30' }, { status: 429, retryAfter: '30' });
    const off = subscribeLiveEvents(() => {});
    await settle();
    // 30 s asked, and a quarter more for the spread: 37.5 s each time, never the 1 or 2 s of a drop.
    expect(await waitForNextRequest()).toBe(37_500);
    expect(await waitForNextRequest()).toBe(37_500);
    // Let in: streams, and a later drop waits by the schedule again.
    await settle();
    latest().emit('ready');
    await settle();
    latest().drop();
    expect(await waitForNextRequest()).toBe(1000);
    off();
  });

  it('stops when the server finds no session, and tells the listeners instead of trying again', async () => {
    const { subscribeLiveEvents, seen, off } = await watching();
    await settle();
    latest().emit('ready');
    // Signed out (here or elsewhere): the server closes the stream; one try shows there is no session.
    server.refusals.push({ status: 401 });
    latest().emit('closed', { reason: 'session_ended' });
    await settle();
    expect(await waitForNextRequest()).toBe(1000);
    await settle();
    expect(seen.ended).toBe(1);
    expect(await waitForNextRequest(10 * 60_000)).toBe(10 * 60_000);
    expect(server.connections).toHaveLength(2);
    expect(seen.statuses.every((s) => s === false)).toBe(true);
    off();

    // Signed in again: a new listener connects.
    const offAgain = subscribeLiveEvents(() => {});
    expect(server.connections).toHaveLength(3);
    offAgain();
  });

  it('after its own password change the browser holds a new session and streams again', async () => {
    const { seen, off } = await watching();
    await settle();
    latest().emit('ready');
    latest().emit('closed', { reason: 'session_ended' });
    await settle();
    expect(await waitForNextRequest()).toBe(1000);
    await settle();
    latest().emit('ready');
    await settle();
    expect(seen.ended).toBe(0);
    expect(seen.statuses).toEqual([false, true]);
    off();
  });

  it('comes back with its current identity after a role change, and reads again after a resync', async () => {
    const { seen, off } = await watching();
    await settle();
    latest().emit('ready');
    latest().emit('closed', { reason: 'session_changed' });
    await settle();
    expect(await waitForNextRequest()).toBe(1000);
    await settle();
    latest().emit('ready');
    await settle();
    expect(seen.statuses).toEqual([false, true]);
    // The server's listening connection was down a moment: events may be missing.
    latest().emit('resync');
    await settle();
    expect(seen.statuses).toEqual([false, true, true]);
    expect(server.connections).toHaveLength(2);
    off();
  });
});
