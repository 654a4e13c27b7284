// @vitest-environment happy-dom
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useLiveEvents } from './liveEvents';

/*
 * The hook over the stream (./liveStream.ts, tested on its own): the first listeners, whose page
 * was read before the stream's code loaded, read it again once the stream is ready; a listener
 * that starts later listens from its start and reads nothing twice.
 */

let emit: (type: string, data?: unknown) => void = () => {};
let streams = 0;
function stubServer() {
  vi.stubGlobal('fetch', async () => {
    streams += 1;
    const body = new ReadableStream<Uint8Array>({
      start: (c) => void (emit = (type, data = {}) => c.enqueue(new TextEncoder().encode(`event: ${type}\ndata: ${JSON.stringify(data)}\n\n`))),
    });
    return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  });
}

function Listening({ onEvent, onReconnect }: { onEvent: () => void; onReconnect: () => void }) {
  useLiveEvents(onEvent, { onReconnect });
  return null;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('listening for live events', () => {
  it('reads the first page again once the stream is ready, and not what starts listening later', async () => {
    stubServer();
    const first = { onEvent: vi.fn(), onReconnect: vi.fn() };
    render(<Listening {...first} />);
    await vi.waitFor(() => expect(streams).toBe(1));
    emit('ready');
    await vi.waitFor(() => expect(first.onReconnect).toHaveBeenCalledTimes(1));

    const later = { onEvent: vi.fn(), onReconnect: vi.fn() };
    render(<Listening {...later} />);
    // Listening from its mount: the next event reaches it, and nothing is read again.
    emit('order', { type: 'order', orderId: 'o1' });
    await vi.waitFor(() => expect(later.onEvent).toHaveBeenCalledTimes(1));
    expect(first.onEvent).toHaveBeenCalledTimes(1);
    expect(later.onReconnect).not.toHaveBeenCalled();
    expect(first.onReconnect).toHaveBeenCalledTimes(1);
    expect(streams).toBe(1);
  });
});
