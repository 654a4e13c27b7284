import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { UserEvent } from '../../core/contracts/events';

/** A stand-in for the browser's EventSource that the test drives by hand. */
class FakeEventSource {
  static all: FakeEventSource[] = [];
  readonly handlers = new Map<string, ((e: { data: string }) => void)[]>();
  onerror: (() => void) | null = null;
  closed = false;
  constructor(readonly url: string) {
    FakeEventSource.all.push(this);
  }
  addEventListener(type: string, fn: (e: { data: string }) => void) {
    this.handlers.set(type, [...(this.handlers.get(type) ?? []), fn]);
  }
  emit(type: string, data: unknown = {}) {
    for (const fn of this.handlers.get(type) ?? []) fn({ data: JSON.stringify(data) });
  }
  fail() {
    this.onerror?.();
  }
  close() {
    this.closed = true;
  }
}

const latest = () => FakeEventSource.all.at(-1)!;

describe('live events connection', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    FakeEventSource.all = [];
    vi.stubGlobal('EventSource', FakeEventSource);
    vi.resetModules();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('shares one connection and hands every event type to every listener', async () => {
    const { subscribeLiveEvents } = await import('./liveEvents');
    const a: UserEvent[] = [];
    const b: UserEvent[] = [];
    const offA = subscribeLiveEvents((e) => a.push(e));
    const offB = subscribeLiveEvents((e) => b.push(e));
    expect(FakeEventSource.all).toHaveLength(1);
    expect(latest().url).toBe('/api/events');
    latest().emit('ticket', { type: 'ticket', ticketId: 't1' });
    latest().emit('admin_ticket', { type: 'admin_ticket', ticketId: 't2' });
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
    const { subscribeLiveEvents, SUPERSEDED_RECONNECT_MS } = await import('./liveEvents');
    const statuses: boolean[] = [];
    const off = subscribeLiveEvents(
      () => {},
      (connected) => statuses.push(connected),
    );
    latest().emit('closed', { reason: 'too_many_streams' });
    expect(latest().closed).toBe(true);
    expect(statuses).toEqual([false]);
    await vi.advanceTimersByTimeAsync(SUPERSEDED_RECONNECT_MS - 500);
    expect(FakeEventSource.all).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(500);
    expect(FakeEventSource.all).toHaveLength(2);
    off();
  });

  it('reconnects after 1, 2, 5, then every 10 seconds, and starts over once connected', async () => {
    const { subscribeLiveEvents } = await import('./liveEvents');
    const statuses: boolean[] = [];
    const off = subscribeLiveEvents(
      () => {},
      (connected) => statuses.push(connected),
    );
    const waits: number[] = [];
    for (let i = 0; i < 5; i++) {
      const count = FakeEventSource.all.length;
      latest().fail();
      expect(latest().closed).toBe(true);
      let waited = 0;
      while (FakeEventSource.all.length === count) {
        await vi.advanceTimersByTimeAsync(500);
        waited += 500;
      }
      waits.push(waited);
    }
    expect(waits).toEqual([1000, 2000, 5000, 10_000, 10_000]);

    // Connected again: the schedule starts from 1 s, and listeners hear that the stream is back.
    latest().emit('ready');
    expect(statuses.at(-1)).toBe(true);
    const count = FakeEventSource.all.length;
    latest().fail();
    await vi.advanceTimersByTimeAsync(999);
    expect(FakeEventSource.all).toHaveLength(count);
    await vi.advanceTimersByTimeAsync(1);
    expect(FakeEventSource.all).toHaveLength(count + 1);
    off();
  });

  it('does not reconnect once nobody listens', async () => {
    const { subscribeLiveEvents } = await import('./liveEvents');
    const off = subscribeLiveEvents(() => {});
    latest().fail();
    off();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(FakeEventSource.all).toHaveLength(1);
  });
});
