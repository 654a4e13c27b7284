import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { UserEvent } from '../../core/contracts/events';
import { AppError } from '../../core/errors';
import type { AppDeps } from '../deps';
import { requireUser, sessionTokenOf, signedInOnly } from '../auth';
import { clientIp } from '../http/clientIp';
import { watchSessions } from './sessions';
import { STREAM_RETRY_AFTER_SECONDS, type CloseReason } from './streams';

const HEARTBEAT_MS = 25_000;

/**
 * `GET /api/events`, Server-Sent Events: the customer's order, balance, payment and ticket
 * changes, live, for as long as the session it was opened with lasts (sessions.ts). Streams are
 * capped per account, per address and per instance (streams.ts): a stream closed for a newer one
 * or for its session is told why with a `closed` event before it ends; a stream refused is
 * answered 429 TOO_MANY_STREAMS with a Retry-After. A `resync` event says events may have been
 * missed.
 */
export function eventsRoutes(deps: AppDeps) {
  return new Hono().get('/events', signedInOnly, async (c) => {
    const user = await requireUser(c);
    const hub = deps.realtime;
    if (!hub) throw new AppError('NOT_FOUND', 'Live updates are off.');
    const token = sessionTokenOf(c);
    if (!token) throw new AppError('UNAUTHENTICATED', 'Sign in to continue.');
    watchSessions(hub, deps.database.db, deps.logger);

    const queue: UserEvent[] = [];
    let wake: (() => void) | null = null;
    let closedFor: CloseReason | null = null;
    let held = 0;
    let resync = false;
    const opened = hub.streams.open(
      { user: user.id, address: clientIp(c), token, roles: user.roles },
      {
        close(reason) {
          closedFor = reason;
          wake?.();
        },
        hold() {
          held++;
          let released = false;
          return () => {
            if (released) return;
            released = true;
            held--;
            wake?.();
          };
        },
        resync() {
          resync = true;
          wake?.();
        },
      },
    );
    if (!opened.ok) {
      c.header('Retry-After', String(STREAM_RETRY_AFTER_SECONDS));
      throw new AppError('TOO_MANY_STREAMS', 'Too many live connections are open.', { retryAfterSeconds: STREAM_RETRY_AFTER_SECONDS });
    }
    const unsubscribe = hub.subscribe(user.id, (event) => {
      queue.push(event);
      wake?.();
    });
    const end = () => {
      unsubscribe();
      opened.forget();
      wake?.();
    };

    c.header('Cache-Control', 'no-cache, no-transform');
    c.header('X-Accel-Buffering', 'no');
    return streamSSE(c, async (stream) => {
      stream.onAbort(end);
      try {
        await stream.writeSSE({ event: 'ready', data: '{}', retry: 1000 });
        while (!stream.aborted && !stream.closed && !closedFor) {
          if (!held && resync) {
            resync = false;
            await stream.writeSSE({ event: 'resync', data: '{}' });
            continue;
          }
          const event = held ? undefined : queue.shift();
          if (event) {
            await stream.writeSSE({ event: event.type, data: JSON.stringify(event) });
            continue;
          }
          const idle = await new Promise<boolean>((resolve) => {
            const timer = setTimeout(() => resolve(true), HEARTBEAT_MS);
            timer.unref();
            wake = () => {
              clearTimeout(timer);
              resolve(false);
            };
          });
          wake = null;
          if (idle && !stream.aborted && !closedFor) await stream.writeSSE({ event: 'ping', data: '{}' });
        }
        if (closedFor && !stream.aborted) await stream.writeSSE({ event: 'closed', data: JSON.stringify({ reason: closedFor }) });
      } finally {
        end();
      }
    });
  });
}
