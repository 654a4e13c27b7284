import { eq } from 'drizzle-orm';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxProvider, type SandboxProvider } from '../../../sandbox/provider';
import { signIn, signUpUser, TEST_ORIGIN } from '../auth/testing';
import type { Database } from '../db/client';
import { auditLog, providers } from '../db/schema';
import { createLogger } from '../logger';
import { keyBox, openProviderRegistry, type StoredRegistry } from '../providers';
import { createTestApp } from '../testing/app';
import { createTestDatabase } from '../testing/db';

const box = keyBox('admin-provider-keys-secret-0123456789abcdef');
let database: Database;
let sandbox: SandboxProvider;
let registry: StoredRegistry;
let app: Hono;
let admin: string;
let moderator: Awaited<ReturnType<typeof signUpUser>>;

const send = (method: string, path: string, cookie?: string, body?: unknown) =>
  app.request(path, {
    method,
    headers: { origin: TEST_ORIGIN, 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

beforeAll(async () => {
  database = await createTestDatabase();
  sandbox = await startSandboxProvider({ orderSeconds: 60, balance: '250.75' });
  registry = await openProviderRegistry(database, { box, logger: createLogger('silent'), listen: false });
  ({ app } = await createTestApp(database, { providers: registry, providerKeys: box }));
  admin = await signIn(app, 'admin@test.local', 'Admin-Pass-123!');
  moderator = await signUpUser(app);
  expect((await send('POST', `/api/admin/users/${moderator.id}/roles`, admin, { role: 'moderator' })).status).toBe(201);
});
afterAll(async () => {
  await registry.close();
  await sandbox.close();
  await database.close();
});


describe('providers in the admin', () => {
  it('are added, listed with the key shown only as its last four characters, edited, tested and disabled, each change audited', async () => {
    const KEY = sandbox.apiKey;
    expect(KEY.length).toBeGreaterThan(8);
    const added = await send('POST', '/api/admin/providers', admin, { name: 'Main panel', protocol: 'smm-v2', url: sandbox.v2Url, key: KEY, callsPerSecond: 10 });
    expect(added.status).toBe(201);
    const body = await added.text();
    expect(body).not.toContain(KEY);
    const created = JSON.parse(body);
    expect(created).toMatchObject({ name: 'Main panel', protocol: 'smm-v2', url: sandbox.v2Url, keyHint: `••••${KEY.slice(-4)}`, callsPerSecond: 10, enabled: true, isDefault: true, balance: null });

    // Stored sealed; the registry of this instance has its client at once.
    const [row] = await database.db.select().from(providers).where(eq(providers.id, created.id));
    expect(row!.keyEncrypted).not.toContain(KEY);
    expect(box.open(row!.keyEncrypted)).toBe(KEY);
    expect(registry.get(created.id)?.name).toBe('Main panel');

    const tested = await (await send('POST', `/api/admin/providers/${created.id}/test`, admin)).json();
    expect(tested).toMatchObject({ ok: true, balance: { amount: '250.75', currency: 'USD' }, error: null });
    const listed = await send('GET', '/api/admin/providers', admin);
    const listText = await listed.text();
    expect(listText).not.toContain(KEY);
    expect(JSON.parse(listText).providers[0]).toMatchObject({ id: created.id, keyHint: `••••${KEY.slice(-4)}`, balance: { amount: '250.75', currency: 'USD' } });

    // A new key replaces the old one and is shown by its last four; none given keeps it.
    const edited = await (await send('PUT', `/api/admin/providers/${created.id}`, admin, { name: 'Main', key: 'replaced-key-9999' })).json();
    expect(edited).toMatchObject({ name: 'Main', keyHint: '••••9999' });
    expect(registry.get(created.id)?.name).toBe('Main');
    await send('PUT', `/api/admin/providers/${created.id}`, admin, { callsPerSecond: 2 });
    const [kept] = await database.db.select().from(providers).where(eq(providers.id, created.id));
    expect(box.open(kept!.keyEncrypted)).toBe('replaced-key-9999');

    // Unreachable: the test answers why, it does not fail the request.
    const down = await (await send('POST', '/api/admin/providers', admin, { name: 'Down', protocol: 'qqtube', url: 'http://127.0.0.1:9/api', key: 'down-key-0000' })).json();
    const failed = await (await send('POST', `/api/admin/providers/${down.id}/test`, admin)).json();
    expect(failed).toMatchObject({ ok: false, balance: null });
    expect(failed.error).toBeTruthy();

    const disabled = await (await send('PUT', `/api/admin/providers/${down.id}`, admin, { enabled: false })).json();
    expect(disabled).toMatchObject({ enabled: false, isDefault: false });
    expect(registry.get(down.id)?.enabled).toBe(false);

    const entries = await database.db.select().from(auditLog).where(eq(auditLog.targetType, 'provider'));
    expect(entries.map((e) => e.action).sort()).toEqual(['provider.create', 'provider.create', 'provider.disable', 'provider.test', 'provider.test', 'provider.update', 'provider.update'].sort());
    expect(JSON.stringify(entries)).not.toContain(sandbox.apiKey);
    expect(JSON.stringify(entries)).not.toContain('replaced-key-9999');
    expect(entries.find((e) => e.action === 'provider.update' && (e.details as { changes: { key?: string } }).changes.key)).toBeTruthy();
  });

  it('refuse bad input with 422 VALIDATION_FAILED, changing nothing', async () => {
    const before = await database.db.select().from(providers);
    const good = { name: 'Panel', protocol: 'smm-v2', url: 'https://panel.example/api/v2', key: 'k-1234' };
    const bad: unknown[] = [
      { ...good, url: 'ftp://panel.example/api' },
      { ...good, url: 'not a url' },
      { ...good, protocol: 'soap' },
      { ...good, name: '   ' },
      { ...good, key: '' },
      { ...good, callsPerSecond: -1 },
      { ...good, callsPerSecond: 1.5 },
      { ...good, extra: true },
      { name: 'No key', protocol: 'smm-v2', url: 'https://panel.example/api/v2' },
    ];
    for (const body of bad) {
      const res = await send('POST', '/api/admin/providers', admin, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect((await res.json()).error.code).toBe('VALIDATION_FAILED');
    }
    const id = before[0]!.id;
    for (const body of [{}, { enabled: 'no' }, { keyHint: '1234' }]) {
      const res = await send('PUT', `/api/admin/providers/${id}`, admin, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
    expect((await send('PUT', '/api/admin/providers/not-a-uuid', admin, { name: 'x' })).status).toBe(422);
    expect((await send('PUT', '/api/admin/providers/00000000-0000-4000-8000-000000000000', admin, { name: 'x' })).status).toBe(404);
    expect(await database.db.select().from(providers)).toEqual(before);
  });

  it('the environment’s provider: name, pace and state are edited here; protocol, address and key stay the environment’s (409)', async () => {
    const [row] = await database.db
      .insert(providers)
      .values({ name: 'From env', protocol: 'smm-v2', url: 'https://env.example/api/v2', keyEncrypted: box.seal('env-key-1111'), keyHint: '1111', fromEnv: true })
      .returning();
    for (const body of [{ url: 'https://elsewhere.example/api/v2' }, { key: 'new-key-2222' }, { protocol: 'qqtube' }]) {
      const res = await send('PUT', `/api/admin/providers/${row!.id}`, admin, body);
      expect(res.status, JSON.stringify(body)).toBe(409);
      expect((await res.json()).error.code).toBe('CONFLICT');
    }
    expect(await (await send('PUT', `/api/admin/providers/${row!.id}`, admin, { name: 'Env panel', callsPerSecond: 7 })).json()).toMatchObject({ name: 'Env panel', callsPerSecond: 7, fromEnv: true, keyHint: '••••1111' });
  });

  it('the sandbox’s second provider (env_slot): protocol, address and key stay the process’s (409); name, pace and state are the admin’s', async () => {
    const [row] = await database.db
      .insert(providers)
      .values({ name: 'Sandbox 2', protocol: 'qqtube', url: 'http://127.0.0.1:4002/api', keyEncrypted: box.seal('sandbox-2-3333'), keyHint: '3333', envSlot: 'sandbox-2' })
      .returning();
    for (const body of [{ url: 'https://elsewhere.example/api/v2' }, { key: 'new-key-2222' }, { protocol: 'smm-v2' }]) {
      const res = await send('PUT', `/api/admin/providers/${row!.id}`, admin, body);
      expect(res.status, JSON.stringify(body)).toBe(409);
      expect((await res.json()).error).toMatchObject({ code: 'CONFLICT', details: { reason: 'env_slot' } });
    }
    expect(await (await send('PUT', `/api/admin/providers/${row!.id}`, admin, { name: 'Reserve sandbox', callsPerSecond: 5, url: 'http://127.0.0.1:4002/api' })).json()).toMatchObject({
      name: 'Reserve sandbox',
      callsPerSecond: 5,
      fromEnv: false,
      envSlot: 'sandbox-2',
      keyHint: '••••3333',
    });
  });

  it('are closed to a moderator and a customer (403)', async () => {
    const customer = await signUpUser(app);
    const [row] = await database.db.select().from(providers).limit(1);
    for (const cookie of [moderator.cookie, customer.cookie]) {
      expect((await send('GET', '/api/admin/providers', cookie)).status).toBe(403);
      expect((await send('POST', '/api/admin/providers', cookie, { name: 'X', protocol: 'smm-v2', url: 'https://x.example/api', key: 'k' })).status).toBe(403);
      expect((await send('PUT', `/api/admin/providers/${row!.id}`, cookie, { enabled: false })).status).toBe(403);
      expect((await send('POST', `/api/admin/providers/${row!.id}/test`, cookie)).status).toBe(403);
    }
  });
});
