import type { UserEvent } from '../../core/contracts/events';

/**
 * The signed-in user's live events (GET /api/events, Server-Sent Events read with `fetch`, so
 * that a refusal's status is known). One connection per browser tab, shared by every component
 * that listens; it opens with the first listener and closes with the last (docs/rules.md#screens):
 * - after a failure it reconnects after 1, 2, 5, then every 10 seconds, and starts counting
 *   again once connected;
 * - refused for too many streams (429) it waits the server's Retry-After (at least its own
 *   schedule's wait), plus up to half as long again, so that refused tabs do not return together;
 * - refused for want of a session (401) it stops: listeners hear `onSessionEnded`, and a listener
 *   added later (after signing in again) connects anew;
 * - closed by the server for a newer stream (`too_many_streams`) it comes back 10 s after the
 *   tab is next looked at; closed because the session changed or ended it connects again on its
 *   schedule: an ended session then meets 401 and stops, while a browser that holds a new session
 *   (after its own password change) or a changed identity streams again;
 * - a `resync` from the server says events may have been missed: listeners hear it as a
 *   reconnect and read their data again.
 */
const EVENT_TYPES = ['order', 'balance', 'payment', 'ticket', 'admin_ticket', 'settings', 'catalog', 'content', 'pricing'] as const satisfies readonly UserEvent['type'][];
// Fails to compile when the union gains a type that is missing above.
type Missing = Exclude<UserEvent['type'], (typeof EVENT_TYPES)[number]>;
const _exhaustive: Missing extends never ? true : never = true;
void _exhaustive;
const isEventType = (name: string): name is UserEvent['type'] => (EVENT_TYPES as readonly string[]).includes(name);

export const RECONNECT_DELAYS_MS = [1000, 2000, 5000, 10_000] as const;
/** How long a tab whose stream was closed for a newer one waits, once visible, before it reconnects. */
export const SUPERSEDED_RECONNECT_MS = 10_000;
/** The longest Retry-After the client honours. */
const MAX_RETRY_AFTER_MS = 10 * 60_000;

export type Listener = (event: UserEvent) => void;
export type StatusListener = (connected: boolean) => void;

const listeners = new Set<Listener>();
const statusListeners = new Set<StatusListener>();
const sessionEndedListeners = new Set<() => void>();
let connection: AbortController | null = null;
let attempt = 0;
let timer: ReturnType<typeof setTimeout> | null = null;
/** The connection is open and the server said it is ready. */
let ready = false;
/** Status listeners that joined late (`catchUp`), told once the stream is ready that they may have missed events. */
const catchingUp = new Set<StatusListener>();

/** How a connection ended: dropped or refused (waiting at least `waitMs`), or for a reason of the server's. */
type Outcome = { kind: 'failed'; waitMs?: number } | { kind: 'superseded' } | { kind: 'signed_out' } | { kind: 'aborted' };

function setStatus(connected: boolean) {
  for (const l of [...statusListeners]) l(connected);
}

function retryAfterMs(header: string | null): number {
  const seconds = Number(header);
  return Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds * 1000, MAX_RETRY_AFTER_MS) : 0;
}

/** One SSE block (`event:` and `data:` lines) → its name and data. */
function parseBlock(block: string): { event: string; data: string } {
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  return { event, data: data.join('\n') };
}

/** Handles one event; returns how the connection ends when the server closed it. */
function handle(event: string, data: string): Outcome | null {
  if (event === 'ready') {
    // A listener that joined while the connection was down may have missed events: tell them.
    if (attempt > 0) setStatus(true);
    else for (const l of [...catchingUp]) l(true);
    catchingUp.clear();
    attempt = 0;
    ready = true;
  } else if (event === 'resync') {
    catchingUp.clear();
    setStatus(true);
  } else if (event === 'closed') {
    let reason: unknown;
    try {
      reason = (JSON.parse(data) as { reason?: unknown }).reason;
    } catch {
      reason = null;
    }
    // A newer stream of this account or address took its place: reconnecting at once would close
    // another tab's. Any other reason: connect again, which tells whether the session still holds.
    return reason === 'too_many_streams' ? { kind: 'superseded' } : { kind: 'failed' };
  } else if (isEventType(event)) {
    let parsed: UserEvent;
    try {
      parsed = JSON.parse(data) as UserEvent;
    } catch {
      return null;
    }
    for (const l of [...listeners]) l(parsed);
  }
  return null;
}

async function run(signal: AbortSignal): Promise<Outcome> {
  try {
    const res = await fetch('/api/events', { headers: { accept: 'text/event-stream' }, credentials: 'same-origin', cache: 'no-store', signal });
    if (res.status === 401) return { kind: 'signed_out' };
    if (res.status === 429) return { kind: 'failed', waitMs: retryAfterMs(res.headers.get('retry-after')) };
    if (!res.ok || !res.body) return { kind: 'failed' };
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) return { kind: 'failed' }; // ended without a word: dropped
      buffer += decoder.decode(chunk.value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = parseBlock(buffer.slice(0, end));
        buffer = buffer.slice(end + 2);
        const outcome = handle(block.event, block.data);
        if (outcome) {
          await reader.cancel().catch(() => {});
          return outcome;
        }
      }
    }
  } catch {
    return signal.aborted ? { kind: 'aborted' } : { kind: 'failed' };
  }
}

function schedule(delay: number) {
  if (timer) clearTimeout(timer);
  timer = setTimeout(() => {
    timer = null;
    if (listeners.size) connect();
  }, delay);
}

function nextDelay(): number {
  const delay = RECONNECT_DELAYS_MS[Math.min(attempt, RECONNECT_DELAYS_MS.length - 1)]!;
  attempt += 1;
  return delay;
}

function ended(outcome: Outcome) {
  ready = false;
  if (outcome.kind === 'aborted') return;
  setStatus(false);
  if (outcome.kind === 'signed_out') {
    // Nothing to reconnect to: no session. Whoever shows the signed-in state reads it again.
    attempt = 0;
    for (const l of [...sessionEndedListeners]) l();
    return;
  }
  if (!listeners.size) return;
  if (outcome.kind === 'superseded') {
    whenVisible(() => schedule(SUPERSEDED_RECONNECT_MS));
    return;
  }
  const own = nextDelay();
  const asked = outcome.waitMs ?? 0;
  schedule(asked > 0 ? Math.max(own, asked) * (1 + Math.random() / 2) : own);
}

function connect() {
  if (connection || timer || typeof fetch !== 'function') return;
  const controller = new AbortController();
  connection = controller;
  void run(controller.signal).then((outcome) => {
    if (connection !== controller) return; // disconnected meanwhile
    connection = null;
    ended(outcome);
  });
}

function whenVisible(then: () => void) {
  if (typeof document === 'undefined' || document.visibilityState !== 'hidden') return then();
  const onChange = () => {
    if (document.visibilityState === 'hidden') return;
    document.removeEventListener('visibilitychange', onChange);
    then();
  };
  document.addEventListener('visibilitychange', onChange);
}

function disconnect() {
  if (timer) clearTimeout(timer);
  timer = null;
  connection?.abort();
  connection = null;
  attempt = 0;
  ready = false;
}

/**
 * Adds a listener (and optionally a connection-status listener and one for a session found
 * ended) to the shared connection, opening it if needed; the returned function removes them and
 * closes the connection after the last. `catchUp`: what the listener shows was read before it
 * listened (a page's data, loaded before the stream's code), so `status` hears `true` once the
 * stream is ready, as after a drop, and it reads its data again.
 */
export function subscribeLiveEvents(listener: Listener, status?: StatusListener, sessionEnded?: () => void, catchUp = false): () => void {
  listeners.add(listener);
  if (status) statusListeners.add(status);
  if (sessionEnded) sessionEndedListeners.add(sessionEnded);
  if (status && catchUp) {
    if (ready) queueMicrotask(() => statusListeners.has(status) && status(true));
    else catchingUp.add(status);
  }
  connect();
  return () => {
    listeners.delete(listener);
    if (status) {
      statusListeners.delete(status);
      catchingUp.delete(status);
    }
    if (sessionEnded) sessionEndedListeners.delete(sessionEnded);
    if (!listeners.size) disconnect();
  };
}
