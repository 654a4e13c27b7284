/**
 * A tiny merchant-side callback URL for tests: records every JSON notification and answers with
 * the next queued HTTP status (200 once the queue is empty).
 */
import { startSink } from '../shared/sink';

function readJson(body: string): Record<string, unknown> {
  try {
    return JSON.parse(body) as Record<string, unknown>;
  } catch {
    return { unreadable: body };
  }
}

export async function startJsonCallbackSink() {
  const { queue, ...sink } = await startSink({
    path: '/payments/callback/payriff', read: readJson, answer: { status: 200, body: 'OK' }, noun: 'notifications',
  });
  return {
    ...sink,
    /** Answers the next notifications with these HTTP statuses, in order. */
    respondWith: (...codes: number[]) => queue(...codes.map((status) => ({ status, body: 'OK' }))),
  };
}

export type JsonCallbackSink = Awaited<ReturnType<typeof startJsonCallbackSink>>;
