/**
 * A tiny merchant-side callback URL for tests: records every JSON notification and answers with
 * the next queued HTTP status (200 once the queue is empty).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export async function startJsonCallbackSink() {
  const received: Record<string, unknown>[] = [];
  const statuses: number[] = [];
  const waiters: Array<() => void> = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      let json: unknown = null;
      try {
        json = JSON.parse(body);
      } catch {
        json = { unreadable: body };
      }
      received.push(json as Record<string, unknown>);
      res.writeHead(statuses.shift() ?? 200).end('OK');
      waiters.splice(0).forEach((wake) => wake());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/payments/callback/payriff`,
    received,
    /** Answers the next notifications with these HTTP statuses, in order. */
    respondWith: (...codes: number[]) => void statuses.push(...codes),
    /** Resolves once `count` notifications have arrived in total; rejects after `timeoutMs`. */
    async waitFor(count: number, timeoutMs = 3000): Promise<Record<string, unknown>[]> {
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
    clear: () => void (received.length = 0, statuses.length = 0),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type JsonCallbackSink = Awaited<ReturnType<typeof startJsonCallbackSink>>;
