import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { startSandboxPayriff } from '../payriff';
import { startSandboxProvider } from '../provider';
import { SANDBOX_KEEP_ALIVE_MS } from './keepAlive';
import { startSink } from './sink';

/** The `Keep-Alive` header a server answers a kept-alive request with (what a client times its reuse by). */
function keepAliveOf(url: string): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'GET', headers: { connection: 'keep-alive' }, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.headers['keep-alive']?.toString()));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the sandboxes keep idle connections', () => {
  it('for longer than their clients do: the payment gateways, the notification sink and the provider', async () => {
    const payriff = await startSandboxPayriff();
    const sink = await startSink({ path: '/callback', read: (body) => body, answer: { status: 200, body: 'OK' }, noun: 'notifications' });
    const provider = await startSandboxProvider();
    try {
      const expected = `timeout=${SANDBOX_KEEP_ALIVE_MS / 1000}`;
      expect(await keepAliveOf(`${payriff.url}/__control`)).toBe(expected);
      expect(await keepAliveOf(sink.url)).toBe(expected);
      expect(await keepAliveOf(`${provider.url}/v1-api`)).toBe(expected);
    } finally {
      await payriff.close();
      await sink.close();
      await provider.close();
    }
  });
});
