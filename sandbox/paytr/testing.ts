/**
 * A tiny shop-side notification URL for tests: records every notification's form fields and
 * answers with the next queued answer (HTTP 200 and `OK` once the queue is empty).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export type ReceivedNotification = Record<string, string>;

export async function startNotificationSink() {
  const received: ReceivedNotification[] = [];
  const answers: { status: number; body: string }[] = [];
  const waiters: Array<() => void> = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      received.push(Object.fromEntries(new URLSearchParams(body)));
      const answer = answers.shift() ?? { status: 200, body: 'OK' };
      res.writeHead(answer.status, { 'content-type': 'text/plain' }).end(answer.body);
      waiters.splice(0).forEach((wake) => wake());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/paytr/notification`,
    received,
    /** Answers the next notifications with these, in order. */
    answerWith: (...queued: { status: number; body: string }[]) => void answers.push(...queued),
    /** Resolves once `count` notifications have arrived in total; rejects after `timeoutMs`. */
    async waitFor(count: number, timeoutMs = 3000): Promise<ReceivedNotification[]> {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`expected ${count} notifications, got ${received.length}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => (clearTimeout(timer), resolve()));
        });
      }
      return received.slice(0, count);
    },
    clear: () => void ((received.length = 0), (answers.length = 0)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type NotificationSink = Awaited<ReturnType<typeof startNotificationSink>>;
