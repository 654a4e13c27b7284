import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBackground, deliver, sendCopies, type DeliveryAttempt } from './notify';

/** A shop that answers with the queued statuses (then 200) and the queued texts (then "OK"). */
let server: Server;
let url: string;
const statuses: number[] = [];
const texts: string[] = [];
let hits = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume().on('end', () => {
      hits++;
      res.writeHead(statuses.shift() ?? 200).end(texts.shift() ?? 'OK');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

type Attempt = DeliveryAttempt<string> & { answer?: string };
const attempt = (to: string | null, mode = 'normal'): Attempt => ({ at: new Date().toISOString(), url: to, mode, httpStatus: null });

describe('notification delivery', () => {
  it('retries until a 2xx, keeping every attempt, and gives up when the retries run out', async () => {
    const kept: Attempt[] = [];
    const { signal } = createBackground('test');
    statuses.push(500, 503);
    const last = await deliver({ url, body: 'x', signal, retryDelaysMs: [1, 1, 1], attempt: () => attempt(url), keep: (r) => kept.push(r) });
    expect(kept.map((r) => r.httpStatus)).toEqual([500, 503, 200]);
    expect(last.httpStatus).toBe(200);

    kept.length = 0;
    statuses.push(500, 500, 500);
    await deliver({ url, body: 'x', signal, retryDelaysMs: [1, 1], attempt: () => attempt(url), keep: (r) => kept.push(r) });
    expect(kept.map((r) => r.httpStatus)).toEqual([500, 500, 500]);
  });

  it('lets the protocol say what an accepted answer is', async () => {
    const kept: Attempt[] = [];
    texts.push('error', 'OK');
    await deliver({
      url, body: new URLSearchParams({ a: '1' }), signal: new AbortController().signal, retryDelaysMs: [1, 1],
      attempt: () => attempt(url), keep: (r) => kept.push(r),
      read: async (res, r) => void (r.answer = await res.text()),
      accepted: (r) => r.answer === 'OK',
    });
    expect(kept.map((r) => [r.httpStatus, r.answer])).toEqual([[200, 'error'], [200, 'OK']]);
  });

  it('records an unreachable shop as an error, not an answer', async () => {
    const kept: Attempt[] = [];
    await deliver({ url: 'http://127.0.0.1:9/', body: 'x', signal: new AbortController().signal, retryDelaysMs: [], attempt: () => attempt(url), keep: (r) => kept.push(r) });
    expect(kept).toHaveLength(1);
    expect(kept[0].httpStatus).toBeNull();
    expect(kept[0].error).toBeTruthy();
  });

  it('sends nothing, N copies, or records that there is no URL, as the mode says', async () => {
    const kept: Attempt[] = [];
    const background = createBackground('test');
    const copies = (mode: string, to: string | null) =>
      sendCopies({
        mode, url: to, noUrl: 'no URL', attempt: (u) => attempt(u, mode), keep: (r) => kept.push(r),
        settings: { lateMs: 1, duplicates: 3 }, signal: background.signal,
        send: (u) => deliver({ url: u, body: 'x', signal: background.signal, retryDelaysMs: [], attempt: () => attempt(u, mode), keep: (r) => kept.push(r) }),
      });
    const before = hits;
    expect(await copies('none', url)).toEqual([]);
    expect(await copies('duplicate', url)).toHaveLength(3);
    expect(await copies('late', url)).toHaveLength(1);
    expect(hits - before).toBe(4);
    const [missing] = await copies('normal', null);
    expect(missing).toMatchObject({ url: null, httpStatus: null, error: 'no URL' });
  });

  it('restart() stops waiting work quietly and idle() waits for the rest', async () => {
    const background = createBackground('test');
    let done = false;
    void background.track(new Promise<void>((resolve) => setTimeout(resolve, 5)).then(() => void (done = true)));
    const waiting = background.track(
      sendCopies({
        mode: 'late', url, noUrl: '', attempt: (u) => attempt(u), keep: () => undefined, settings: { lateMs: 60_000, duplicates: 1 },
        signal: background.signal, send: () => Promise.reject(new Error('sent')),
      }),
    );
    background.restart();
    await expect(waiting).resolves.toBeUndefined();
    await background.idle();
    expect(done).toBe(true);
    expect(background.signal.aborted).toBe(false);
  });
});
