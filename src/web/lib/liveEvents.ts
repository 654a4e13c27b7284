import { useEffect, useRef } from 'react';
import type { UserEvent } from '../../core/contracts/events';

/**
 * The signed-in user's live events (GET /api/events, Server-Sent Events). One connection per
 * browser tab, shared by every component that listens; it opens with the first listener and
 * closes with the last. After a failure it reconnects after 1, 2, 5, then every 10 seconds
 * (docs/rules.md#screens), and starts counting again once connected.
 */
const EVENT_TYPES = ['order', 'balance', 'payment', 'ticket', 'admin_ticket', 'settings', 'catalog', 'content'] as const satisfies readonly UserEvent['type'][];
// Fails to compile when the union gains a type that is missing above.
type Missing = Exclude<UserEvent['type'], (typeof EVENT_TYPES)[number]>;
const _exhaustive: Missing extends never ? true : never = true;
void _exhaustive;

export const RECONNECT_DELAYS_MS = [1000, 2000, 5000, 10_000] as const;

type Listener = (event: UserEvent) => void;
type StatusListener = (connected: boolean) => void;

const listeners = new Set<Listener>();
const statusListeners = new Set<StatusListener>();
let source: EventSource | null = null;
let attempt = 0;
let timer: ReturnType<typeof setTimeout> | null = null;

function setStatus(connected: boolean) {
  for (const l of statusListeners) l(connected);
}

function connect() {
  if (typeof EventSource === 'undefined' || source) return;
  const es = new EventSource('/api/events', { withCredentials: true });
  source = es;
  es.addEventListener('ready', () => {
    // A listener that joined while the connection was down may have missed events: tell them.
    if (attempt > 0) setStatus(true);
    attempt = 0;
  });
  for (const type of EVENT_TYPES) {
    es.addEventListener(type, (e) => {
      let event: UserEvent;
      try {
        event = JSON.parse((e as MessageEvent<string>).data) as UserEvent;
      } catch {
        return;
      }
      for (const l of [...listeners]) l(event);
    });
  }
  es.onerror = () => {
    // Our own schedule instead of the browser's: close and try again later.
    es.close();
    if (source === es) source = null;
    setStatus(false);
    if (!listeners.size) return;
    const delay = RECONNECT_DELAYS_MS[Math.min(attempt, RECONNECT_DELAYS_MS.length - 1)]!;
    attempt += 1;
    timer = setTimeout(() => {
      timer = null;
      if (listeners.size) connect();
    }, delay);
  };
  // The server closed this stream for a newer one of the same account or address (it caps them):
  // reconnecting at once would close another tab's. Come back when this tab is looked at again.
  es.addEventListener('closed', () => {
    es.close();
    if (source === es) source = null;
    setStatus(false);
    whenVisible(() => {
      timer = setTimeout(() => {
        timer = null;
        if (listeners.size) connect();
      }, SUPERSEDED_RECONNECT_MS);
    });
  });
}

/** How long a tab whose stream was closed for a newer one waits, once visible, before it reconnects. */
export const SUPERSEDED_RECONNECT_MS = 10_000;

function whenVisible(run: () => void) {
  if (typeof document === 'undefined' || document.visibilityState !== 'hidden') return run();
  const onChange = () => {
    if (document.visibilityState === 'hidden') return;
    document.removeEventListener('visibilitychange', onChange);
    run();
  };
  document.addEventListener('visibilitychange', onChange);
}

function disconnect() {
  if (timer) clearTimeout(timer);
  timer = null;
  source?.close();
  source = null;
  attempt = 0;
}

/**
 * Adds a listener (and optionally a connection-status listener) to the shared connection,
 * opening it if needed; the returned function removes them and closes the connection after the last.
 */
export function subscribeLiveEvents(listener: Listener, status?: StatusListener): () => void {
  listeners.add(listener);
  if (status) statusListeners.add(status);
  connect();
  return () => {
    listeners.delete(listener);
    if (status) statusListeners.delete(status);
    if (!listeners.size) disconnect();
  };
}

/** Listens for live events while `enabled`; `onReconnect` runs when the stream comes back after a drop. */
export function useLiveEvents(handler: Listener, opts: { enabled?: boolean; onReconnect?: () => void } = {}): void {
  const enabled = opts.enabled ?? true;
  const handlerRef = useRef(handler);
  const reconnectRef = useRef(opts.onReconnect);
  useEffect(() => {
    handlerRef.current = handler;
    reconnectRef.current = opts.onReconnect;
  });

  useEffect(() => {
    if (!enabled) return;
    const listener: Listener = (e) => handlerRef.current(e);
    const status: StatusListener = (connected) => {
      if (connected) reconnectRef.current?.();
    };
    return subscribeLiveEvents(listener, status);
  }, [enabled]);
}
