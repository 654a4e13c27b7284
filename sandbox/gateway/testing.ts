/**
 * A tiny merchant-side result URL for tests: records every callback POST (form `data` and
 * `signature`) and answers with the next queued HTTP status (200 once the queue is empty).
 */
import { startSink } from '../shared/sink';

export type ReceivedCallback = {
  data?: string;
  signature?: string;
};

export async function startCallbackSink() {
  const { queue, ...sink } = await startSink<ReceivedCallback>({
    path: '/payments/callback',
    read: (body) => {
      const form = new URLSearchParams(body);
      return { data: form.get('data') ?? undefined, signature: form.get('signature') ?? undefined };
    },
    answer: { status: 200, body: 'OK' },
    noun: 'callbacks',
  });
  return {
    ...sink,
    /** Answers the next callbacks with these HTTP statuses, in order. */
    respondWith: (...codes: number[]) => queue(...codes.map((status) => ({ status, body: 'OK' }))),
  };
}

export type CallbackSink = Awaited<ReturnType<typeof startCallbackSink>>;
