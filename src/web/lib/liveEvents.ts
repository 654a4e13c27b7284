import { useEffect, useRef } from 'react';
import type * as LiveStream from './liveStream';
import type { Listener, StatusListener } from './liveStream';
import { whenIdle } from './idle';

/** The stream's code, once loaded. */
let stream: typeof LiveStream | null = null;

/**
 * Listens for live events while `enabled`; `onReconnect` runs when the stream comes back after a
 * drop (or the server says events may have been missed), `onSessionEnded` when the server
 * refuses the stream for want of a session. The stream's code (./liveStream.ts) loads when the
 * browser is first idle after the first listener starts, once the page is live, not with the
 * page's first scripts: what those first listeners read before is read again once the stream is
 * ready (`onReconnect`), so that no change made meanwhile is missed. A listener that starts once
 * the code is there (a tab opened later) listens from its start, as its data is read.
 */
export function useLiveEvents(handler: Listener, opts: { enabled?: boolean; onReconnect?: () => void; onSessionEnded?: () => void } = {}): void {
  const enabled = opts.enabled ?? true;
  const handlerRef = useRef(handler);
  const reconnectRef = useRef(opts.onReconnect);
  const sessionEndedRef = useRef(opts.onSessionEnded);
  useEffect(() => {
    handlerRef.current = handler;
    reconnectRef.current = opts.onReconnect;
    sessionEndedRef.current = opts.onSessionEnded;
  });

  useEffect(() => {
    if (!enabled) return;
    const listener: Listener = (e) => handlerRef.current(e);
    const status: StatusListener = (connected) => {
      if (connected) reconnectRef.current?.();
    };
    const sessionEnded = () => sessionEndedRef.current?.();
    if (stream) return stream.subscribeLiveEvents(listener, status, sessionEnded);
    let stop: (() => void) | undefined;
    let stopped = false;
    const cancelIdle = whenIdle(
      () =>
        void import('./liveStream').then((loaded) => {
          stream = loaded;
          // What the page shows was read before the stream: it is read again once the stream is ready.
          if (!stopped) stop = loaded.subscribeLiveEvents(listener, status, sessionEnded, true);
        }),
    );
    return () => {
      stopped = true;
      cancelIdle();
      stop?.();
    };
  }, [enabled]);
}
