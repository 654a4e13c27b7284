/**
 * A tiny shop-side notification URL for tests: records every notification's form fields and
 * answers with the next queued answer (HTTP 200 and `OK` once the queue is empty).
 */
import { startSink } from '../shared/sink';

export type ReceivedNotification = Record<string, string>;

const TEXT = { 'content-type': 'text/plain' };

export async function startNotificationSink() {
  const { queue, ...sink } = await startSink<ReceivedNotification>({
    path: '/paytr/notification',
    read: (body) => Object.fromEntries(new URLSearchParams(body)),
    answer: { status: 200, body: 'OK', headers: TEXT },
    noun: 'notifications',
  });
  return {
    ...sink,
    /** Answers the next notifications with these, in order. */
    answerWith: (...queued: { status: number; body: string }[]) => queue(...queued.map((a) => ({ ...a, headers: TEXT }))),
  };
}

export type NotificationSink = Awaited<ReturnType<typeof startNotificationSink>>;
