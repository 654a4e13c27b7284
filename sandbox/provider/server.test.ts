import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import Big from 'big.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSandboxProvider, type SandboxProvider } from './index';

const form = (fields: Record<string, string | number>) =>
  new URLSearchParams(Object.entries(fields).map(([k, v]) => [k, String(v)]));

async function post(url: string, fields: Record<string, string | number>) {
  const res = await fetch(url, { method: 'POST', body: form(fields) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('sandbox provider over HTTP', () => {
  let sb: SandboxProvider;
  beforeAll(async () => {
    sb = await startSandboxProvider({ orderSeconds: 1, serviceCount: 50 });
  });
  afterAll(() => sb.close());

  it('speaks both protocols on one server and refuses a wrong key each its own way', async () => {
    const qq = await post(sb.qqtubeUrl, { api_key: 'bad', action: 'funds' });
    expect(qq).toEqual({ status: 401, body: { status: 'error', messages: [{ id: 10, message: 'Invalid API key' }] } });
    expect(await post(sb.v2Url, { key: 'bad', action: 'balance' })).toEqual({ status: 200, body: { error: 'Incorrect API key' } });
    expect((await post(sb.v2Url, { key: sb.apiKey, action: 'nope' })).body).toEqual({ error: 'Incorrect request' });
    const multipart = new FormData();
    multipart.set('api_key', sb.apiKey);
    multipart.set('action', 'funds');
    expect((await fetch(sb.qqtubeUrl, { method: 'POST', body: multipart })).status).toBe(405);
  });

  it('answers after its configured latency and turns a key over its rate limit away with 429', async () => {
    sb.control.setLatency([120, 160]);
    const started = Date.now();
    await post(sb.v2Url, { key: sb.apiKey, action: 'balance' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(120);
    sb.control.setLatency(0);

    sb.control.setRateLimit(1);
    try {
      await new Promise((r) => setTimeout(r, 1000));
      expect((await post(sb.v2Url, { key: sb.apiKey, action: 'balance' })).status).toBe(200);
      const limited = await fetch(sb.v2Url, { method: 'POST', body: form({ key: sb.apiKey, action: 'balance' }) });
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toBe('1');
      expect(await limited.json()).toEqual({ error: 'Too many requests' });
      const qq = await post(sb.qqtubeUrl, { api_key: sb.apiKey, action: 'funds' });
      expect(qq).toEqual({ status: 429, body: { status: 'error', messages: [{ id: 429, message: 'Too many requests' }] } });
      // Another key has a window of its own.
      expect((await post(sb.v2Url, { key: 'other', action: 'balance' })).status).toBe(200);
      expect(sb.control.rateLimited()).toBe(2);
    } finally {
      sb.control.setRateLimit(0);
    }
  });

  it('shares one order book between the protocols', async () => {
    const list = (await post(sb.v2Url, { key: sb.apiKey, action: 'services' })).body as unknown as { service: number; min: string; type: string }[];
    const s = list.find((x) => x.type === 'Default')!;
    const added = await post(sb.v2Url, { key: sb.apiKey, action: 'add', service: s.service, link: 'https://t.me/a', quantity: s.min });
    const id = String(added.body.order);
    const stats = await post(sb.qqtubeUrl, { api_key: sb.apiKey, action: 'stats', id_service_submission: id });
    expect(stats.body).toMatchObject({ status: 'success', data: { id_service_submission: id, wanted_count: s.min, long_url: 'https://t.me/a' } });
    const subs = await post(sb.qqtubeUrl, { api_key: sb.apiKey, action: 'submissions', limit: 1 });
    expect((subs.body.data as { id_service_submission: string }[]).map((r) => r.id_service_submission)).toEqual([id]);
  });

  it('is controlled over HTTP: fault, clock, balance and order state', async () => {
    const set = await fetch(`${sb.url}/__control`, {
      method: 'POST',
      body: JSON.stringify({ mode: '5xx', actions: ['funds'], times: 1, advanceMs: 5000, balance: '12.5' }),
    });
    expect(await set.json()).toMatchObject({ fault: { mode: '5xx', remaining: 1 }, clockOffsetMs: 5000, balance: '12.5000' });
    expect((await fetch(sb.qqtubeUrl, { method: 'POST', body: form({ api_key: sb.apiKey, action: 'funds' }) })).status).toBe(503);
    expect((await post(sb.qqtubeUrl, { api_key: sb.apiKey, action: 'funds' })).body).toMatchObject({ funds: '12.5000' });
    const state = (await (await fetch(`${sb.url}/__control`)).json()) as { fault: object; calls: Record<string, number> };
    expect(state.fault).toEqual({});
    expect(state.calls['qqtube:funds']).toBeGreaterThanOrEqual(2);

    const [order] = (await (await fetch(`${sb.url}/__control/orders`)).json()) as { id: string }[];
    const patched = await fetch(`${sb.url}/__control/orders/${order!.id}`, { method: 'POST', body: JSON.stringify({ status: 'partial', delivered: 1 }) });
    expect(await patched.json()).toMatchObject({ status: 'partial', delivered: 1 });
    expect((await fetch(`${sb.url}/__control`, { method: 'POST', body: '{"mode":"sideways"}' })).status).toBe(400);
    expect((await fetch(`${sb.url}/__control`, { method: 'POST', body: '{"reset":true}' })).status).toBe(200);
  });

  it('is told over HTTP its price factor, which orders to refuse in turn, and a balance or none', async () => {
    const control = async (body: object) => {
      const res = await fetch(`${sb.url}/__control`, { method: 'POST', body: JSON.stringify(body) });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const rates = async () => ((await post(sb.v2Url, { key: sb.apiKey, action: 'services' })).body as unknown as { rate: string }[]).map((x) => x.rate);
    const before = await rates();
    try {
      expect((await control({ priceFactor: '2', refuseEvery: 1, balance: '3.5' })).body).toMatchObject({ priceFactor: '2', refuseEvery: 1, balance: '3.5000', unlimited: false });
      expect((await rates()).map((r) => new Big(r).div(2).toFixed(4))).toEqual(before);
      const list = (await post(sb.qqtubeUrl, { api_key: sb.apiKey, action: 'services' })).body.data as { id_service: string; amount_minimum: string; params: { field_validators: string }[] }[];
      const s = list.find((x) => x.params.every((p) => !p.field_validators.includes('required')))!;
      const refused = await post(sb.qqtubeUrl, { api_key: sb.apiKey, action: 'add', id_service: s.id_service, url: 'https://t.me/turn', quantity: s.amount_minimum });
      expect(refused).toEqual({ status: 200, body: { status: 'error', messages: [{ id: 90, message: 'Service temporarily unavailable' }] } });
      expect((await control({ refuseEvery: 0, balance: '0' })).body).toMatchObject({ refuseEvery: 0, balance: '0.0000' });
      const short = await post(sb.qqtubeUrl, { api_key: sb.apiKey, action: 'add', id_service: s.id_service, url: 'https://t.me/short', quantity: s.amount_minimum });
      expect(short.body).toEqual({ status: 'error', messages: [{ id: 70, message: 'Not enough funds on balance' }] });
      expect((await control({ balance: null })).body).toMatchObject({ unlimited: true, balance: '1000000000.0000' });
      expect((await post(sb.qqtubeUrl, { api_key: sb.apiKey, action: 'add', id_service: s.id_service, url: 'https://t.me/short', quantity: s.amount_minimum })).body).toMatchObject({ status: 'success' });
      for (const bad of [{ priceFactor: '0' }, { priceFactor: '1.23456' }, { refuseEvery: -1 }, { refuseEvery: 1.5 }, { balance: 'lots' }]) {
        expect((await control(bad)).status, JSON.stringify(bad)).toBe(400);
      }
    } finally {
      await control({ priceFactor: '1', refuseEvery: 0 });
    }
    expect(await rates()).toEqual(before);
  });
});

describe('sandbox provider options', () => {
  it('starts with a balance that never runs out unless one is given, and refuses a bad price factor or refusal turn', async () => {
    const open = await startSandboxProvider({ serviceCount: 10 });
    try {
      expect(open.control.balance()).toBe('1000000000.0000');
      expect((await post(open.v2Url, { key: open.apiKey, action: 'balance' })).body).toEqual({ balance: '1000000000.00000', currency: 'USD' });
    } finally {
      await open.close();
    }
    await expect(startSandboxProvider({ serviceCount: 10, priceFactor: '-2' })).rejects.toThrow(/price factor/);
    await expect(startSandboxProvider({ serviceCount: 10, refuseEvery: -1 })).rejects.toThrow(/refuseEvery/);
  });
});

describe('sandbox provider state', () => {
  it('keeps orders, balance and clock in the state file across a restart', async () => {
    const stateFile = join(mkdtempSync(join(tmpdir(), 'sandbox-provider-')), 'state.json');
    const first = await startSandboxProvider({ stateFile, serviceCount: 20 });
    const list = (await post(first.v2Url, { key: first.apiKey, action: 'services' })).body as unknown as { service: number; min: string; type: string }[];
    const s = list.find((x) => x.type === 'Default')!;
    const { body } = await post(first.v2Url, { key: first.apiKey, action: 'add', service: s.service, link: 'https://t.me/keep', quantity: s.min });
    first.control.advance(60_000);
    const balance = first.control.balance();
    await first.close();

    const second = await startSandboxProvider({ stateFile, serviceCount: 20 });
    try {
      expect(second.control.order(String(body.order))).toMatchObject({ link: 'https://t.me/keep' });
      expect(second.control.balance()).toBe(balance);
      const next = await post(second.v2Url, { key: second.apiKey, action: 'add', service: s.service, link: 'https://t.me/next', quantity: s.min });
      expect(Number(next.body.order)).toBe(Number(body.order) + 1);
    } finally {
      await second.close();
    }
  });
});

describe('sandbox provider state without its folder', () => {
  const addOne = async (p: SandboxProvider, link: string) => {
    const list = (await post(p.v2Url, { key: p.apiKey, action: 'services' })).body as unknown as { service: number; min: string; type: string }[];
    const s = list.find((x) => x.type === 'Default')!;
    return (await post(p.v2Url, { key: p.apiKey, action: 'add', service: s.service, link, quantity: s.min })).body;
  };

  it('creates the folder of its state file when it is missing, and keeps the state across a restart', async () => {
    const stateFile = join(mkdtempSync(join(tmpdir(), 'sandbox-provider-')), 'not', 'yet', 'state.json');
    const first = await startSandboxProvider({ stateFile, serviceCount: 20 });
    const added = await addOne(first, 'https://t.me/folder');
    await first.close();
    expect(existsSync(stateFile)).toBe(true);
    const second = await startSandboxProvider({ stateFile, serviceCount: 20 });
    try {
      expect(second.control.order(String(added.order))).toMatchObject({ link: 'https://t.me/folder' });
    } finally {
      await second.close();
    }
  });

  it('keeps the state in memory when it cannot be written: told once, and closing never fails', async () => {
    // A plain file where the folder should be: no folder can be made there.
    const blocker = join(mkdtempSync(join(tmpdir(), 'sandbox-provider-')), 'a-file');
    writeFileSync(blocker, '');
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const p = await startSandboxProvider({ stateFile: join(blocker, 'state.json'), serviceCount: 20 });
      for (let i = 0; i < 3; i++) {
        const added = await addOne(p, `https://t.me/memory.${i}`);
        expect(p.control.order(String(added.order))).toMatchObject({ link: `https://t.me/memory.${i}` });
        await new Promise((r) => setTimeout(r, 300)); // past the write's delay
      }
      await expect(p.close()).resolves.toBeUndefined();
      expect(errors.mock.calls.filter((c) => String(c[0]).includes('state not saved'))).toHaveLength(1);
    } finally {
      errors.mockRestore();
    }
  });
});

describe('sandbox provider as a process', () => {
  it('starts from the command line and prints its URLs', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'sandbox/provider/main.ts'], {
      env: { ...process.env, PORT: '0', SERVICE_COUNT: '30', SANDBOX_API_KEY: 'cli-key', PRICE_FACTOR: '1.5', REFUSE_EVERY: '4', SANDBOX_BALANCE: '12.25' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout! }).once('line', resolve);
        child.once('exit', (code) => reject(new Error(`exited with ${code}`)));
      });
      const info = JSON.parse(line) as { url: string; v2Url: string; apiKey: string };
      expect(info.apiKey).toBe('cli-key');
      const services = await post(info.v2Url, { key: 'cli-key', action: 'services' });
      expect(services.body).toHaveLength(30);
      expect(await (await fetch(`${info.url}/__control`)).json()).toMatchObject({ priceFactor: '1.5', refuseEvery: 4, balance: '12.2500', unlimited: false });
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  });
});
