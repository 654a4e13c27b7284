import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { UserEvent } from '../../core/contracts/events';
import { AppError } from '../../core/errors';
import type { AppDeps } from '../deps';
import { requireUser, signedInOnly } from '../auth';
import { clientIp } from '../http/clientIp';
import { createStreamRegistry, type StreamRegistry } from './streams';

const HEARTBEAT_MS = 25_000;

/**
 * `GET /api/events`, Server-Sent Events: the customer's order, balance, payment and ticket
 * changes, live. Streams are capped per account and per address (streams.ts); a stream closed
 * for a newer one is told so with a `closed` event before it ends.
 */
export function eventsRoutes(deps: AppDeps, streams: StreamRegistry = createStreamRegistry()) {
  return new Hono().get('/events', signedInOnly, async (c) => {
    const user = await requireUser(c);
    const hub = deps.realtime;
    if (!hub) throw new AppError('NOT_FOUND', 'Live updates are off.');
    const address = clientIp(c);
    c.header('Cache-Control', 'no-cache, no-transform');
    c.header('X-Accel-Buffering', 'no');
    return streamSSE(c, async (stream) => {
      const queue: UserEvent[] = [];
      let wake: (() => void) | null = null;
      let closedFor: string | null = null;
      const unsubscribe = hub.subscribe(user.id, (event) => {
        queue.push(event);
        wake?.();
      });
      const forget = streams.open(user.id, address, {
        close(reason) {
          closedFor = reason;
          wake?.();
        },
      });
      stream.onAbort(() => {
        unsubscribe();
        forget();
        wake?.();
      });
      try {
        await stream.writeSSE({ event: 'ready', data: '{}', retry: 1000 });
        while (!stream.aborted && !stream.closed && !closedFor) {
          const event = queue.shift();
          if (event) {
            await stream.writeSSE({ event: event.type, data: JSON.stringify(event) });
            continue;
          }
          await new Promise<void>((resolve) => {
            wake = resolve;
            setTimeout(resolve, HEARTBEAT_MS).unref();
          });
          wake = null;
          if (!queue.length && !stream.aborted && !closedFor) await stream.writeSSE({ event: 'ping', data: '{}' });
        }
        if (closedFor && !stream.aborted) await stream.writeSSE({ event: 'closed', data: JSON.stringify({ reason: closedFor }) });
      } finally {
        unsubscribe();
        forget();
      }
    });
  });
}
