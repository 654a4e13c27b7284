/**
 * A tiny shop-side notification URL for tests, the part the payment sandboxes share: records every
 * POST as the sandbox's `read` turns its body, answers with the next queued answer (or the
 * default), and lets a test wait for a number of them. What a notification holds stays in each
 * sandbox's testing.ts.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { keepConnections } from './keepAlive';

export interface SinkAnswer {
  status: number;
  body: string;
  headers?: Record<string, string>;
}

export interface SinkOptions<T> {
  /** The path of the URL handed out (the sink answers on any path). */
  path: string;
  /** Turns a request body into what the test reads. */
  read: (body: string) => T;
  /** The answer once the queue is empty. */
  answer: SinkAnswer;
  /** What the notifications are called in a timeout's message. */
  noun: string;
}

export async function startSink<T>(opts: SinkOptions<T>) {
  const received: T[] = [];
  const answers: SinkAnswer[] = [];
  const waiters: Array<() => void> = [];
  const server = keepConnections(createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      received.push(opts.read(body));
      const answer = answers.shift() ?? opts.answer;
      res.writeHead(answer.status, answer.headers).end(answer.body);
      waiters.splice(0).forEach((wake) => wake());
    });
  }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}${opts.path}`,
    received,
    /** Answers the next notifications with these, in order. */
    queue: (...queued: SinkAnswer[]) => void answers.push(...queued),
    /** Resolves once `count` notifications have arrived in total; rejects after `timeoutMs`. */
    async waitFor(count: number, timeoutMs = 3000): Promise<T[]> {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`expected ${count} ${opts.noun}, got ${received.length}`);
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
