import { eq } from 'drizzle-orm';
import type { Hono } from 'hono';
import { beforeAll, describe, expect, it } from 'vitest';
import { signIn, TEST_ORIGIN } from '../auth/testing';
import type { Database } from '../db/client';
import { auditLog, catalogServices, orders, serviceCustomNames, users } from '../db/schema';
import { newOrderNumber } from '../orders/service';
import { useTestShop } from '../testing/shop';
import { createCustomer } from '../testing/users';
import { audit, AUDIT_PAGE } from './audit';

/**
 * The team's audit log as the list answers it: filtered by actor, action and days on the server,
 * a page at a time, each entry with its actor as they are now and its target by name.
 */

let database: Database;
let app: Hono;
let admin: string;
let adminUser: { id: string; name: string; email: string };
let customer: { id: string; email: string };
let order: { id: string; number: string };
let serviceId: number;

useTestShop((shop) => ({ database, app } = shop));

const send = (method: string, path: string, body?: unknown) =>
  app.request(path, {
    method,
    headers: { origin: TEST_ORIGIN, 'content-type': 'application/json', cookie: admin },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
const list = async (query = '') => {
  const res = await send('GET', `/api/admin/audit${query}`);
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json();
};

const gone = { id: 'staff-who-left', email: 'former@artim.az' };

beforeAll(async () => {
  admin = await signIn(app, 'admin@test.local', 'Admin-Pass-123!');
  [adminUser] = await database.db.select({ id: users.id, name: users.name, email: users.email }).from(users).where(eq(users.email, 'admin@test.local'));
  customer = await createCustomer(database.db, { email: 'ayla@example.az', name: 'Ayla', balanceMicros: 20_000_000 });

  // Through the routes: a balance adjustment and a local service.
  expect((await send('POST', `/api/admin/users/${customer.id}/balance`, { amountMicros: 5_000_000, reason: 'goodwill' })).status).toBe(200);
  const created = await send('POST', '/api/admin/catalog/services', { name: { az: 'Loqo dizaynı', tr: 'Logo tasarımı', en: 'Logo design' }, priceQepik: 30_000 });
  serviceId = (await created.json()).id;

  // Entries as the other routes write them.
  const [o] = await database.db
    .insert(orders)
    .values({ number: newOrderNumber(), userId: customer.id, serviceId: '1', serviceName: 'Followers', platform: 'instagram', serviceType: 'Default', link: 'https://instagram.com/ayla', linkKey: 'instagram.com/ayla', quantity: 100, chargeMicros: 2_500_000, idempotencyKey: 'audit-order', requestHash: 'h' })
    .returning({ id: orders.id, number: orders.number });
  order = o!;
  const actor = { id: adminUser.id, email: adminUser.email };
  await audit(database.db, actor, 'order.refund', { type: 'order', id: order.id }, { amountMicros: 1_250_000, reason: 'late', number: order.number });
  // A target id its table cannot hold is named by nothing, and never breaks the list.
  await audit(database.db, actor, 'order.resubmit', { type: 'order', id: 'not-a-uuid' });
  // An actor whose account is gone keeps the e-mail stored with the entry.
  await audit(database.db, gone, 'faq.delete', { type: 'faq', id: 999_999 });
  // An entry from long ago, written before amounts were micro-dollars.
  await database.db.insert(auditLog).values({ actorId: adminUser.id, actorEmail: adminUser.email, action: 'balance.adjust', targetType: 'user', targetId: customer.id, details: { amountCents: 250, reason: 'old' }, createdAt: new Date('2001-01-15T10:00:00Z') });
});

describe('the audit log list', () => {
  it('names the actor (name and e-mail) and the target: a user by e-mail, an order by its number, a service by its name in the asked language', async () => {
    const adjusted = await list(`?action=balance.adjust&actor=${adminUser.id}&from=2002-01-01`);
    expect(adjusted.total).toBe(1);
    expect(adjusted.entries[0]).toMatchObject({
      action: 'balance.adjust',
      targetType: 'user',
      targetId: customer.id,
      details: { amountMicros: 5_000_000, reason: 'goodwill' },
      actor: { id: adminUser.id, name: adminUser.name, email: 'admin@test.local', gone: false },
      target: { label: 'ayla@example.az' },
    });

    const refunded = await list('?action=order.refund');
    expect(refunded.entries).toMatchObject([{ target: { label: order.number }, details: { amountMicros: 1_250_000 } }]);

    const service = (await list('?action=service.create&lang=tr')).entries[0];
    expect(service).toMatchObject({ targetId: String(serviceId), target: { label: 'Logo tasarımı' } });
    expect((await list('?action=service.create&lang=az')).entries[0].target.label).toBe('Loqo dizaynı');

    expect((await list('?action=order.resubmit')).entries[0]).toMatchObject({ targetId: 'not-a-uuid', target: { label: null } });
  });

  it('names a shop service as the catalogue names it in the asked language, not by its provider name', async () => {
    const terms = { platform: 'instagram', type: 'Default', amountMinimum: 10, amountIncrement: 1, tiers: [{ minimum: 10, maximum: 10_000, price: '0.5', pricingPer: 1000 }], params: [] };
    await database.db.insert(catalogServices).values([
      { ...terms, id: 'audit-followers', name: 'Instagram Followers [Audit Real] ⚡' },
      // Renamed by the rule it would read like the next one, so the catalogue keeps its provider name.
      { ...terms, id: 'audit-likes', name: 'Instagram Likes [Audit HQ]' },
      { ...terms, id: 'audit-likes-az', name: 'Instagram Bəyənmələr [Audit HQ]' },
      { ...terms, id: 'audit-retired', name: 'Instagram Followers [Audit Old]', active: false },
    ]);
    await database.db.insert(serviceCustomNames).values([
      { apiServiceName: 'Instagram Followers', languageCode: 'az', customName: 'İnstaqram izləyiciləri' },
      { apiServiceName: 'Followers', languageCode: 'tr', customName: 'Takipçi' },
      { apiServiceName: 'Likes', languageCode: 'az', customName: 'Bəyənmələr' },
    ]);
    const actor = { id: adminUser.id, email: adminUser.email };
    for (const id of ['audit-followers', 'audit-likes', 'audit-retired']) await audit(database.db, actor, 'service.sources', { type: 'service', id }, { sources: [] });

    const labels = async (lang: string) => new Map((await list(`?action=service.sources&lang=${lang}`)).entries.map((e: { targetId: string; target: { label: string } }) => [e.targetId, e.target.label]));
    const catalogue = async (lang: string) => new Map(((await (await app.request(`/api/catalog/services?lang=${lang}`)).json()).services as { id: string; name: string }[]).map((s) => [s.id, s.name]));

    const az = await labels('az');
    expect(Object.fromEntries(az)).toEqual({
      // The rule's words; the glossary words "Real" and "Old" (src/core/serviceGlossary.ts).
      'audit-followers': 'İnstaqram izləyiciləri [Audit real] ⚡',
      'audit-likes': 'Instagram Likes [Audit HQ]',
      'audit-retired': 'İnstaqram izləyiciləri [Audit köhnə]',
    });
    const listedAz = await catalogue('az');
    for (const id of ['audit-followers', 'audit-likes']) expect(az.get(id), id).toBe(listedAz.get(id));

    const tr = await labels('tr');
    expect(tr.get('audit-followers')).toBe('Instagram Takipçi [Audit gerçek] ⚡');
    expect(tr.get('audit-followers')).toBe((await catalogue('tr')).get('audit-followers'));
    expect((await labels('en')).get('audit-followers')).toBe('Instagram Followers [Audit Real] ⚡');
    await database.db.delete(serviceCustomNames);
  });

  it('keeps the stored e-mail of an actor whose account is gone, and filters by actor', async () => {
    const page = await list(`?actor=${gone.id}`);
    expect(page.total).toBe(1);
    expect(page.entries[0]).toMatchObject({ action: 'faq.delete', actor: { id: gone.id, name: null, email: 'former@artim.az', gone: true }, target: { label: null } });
    expect(page.actors).toEqual(expect.arrayContaining([{ id: gone.id, name: null, email: 'former@artim.az' }, { id: adminUser.id, name: adminUser.name, email: 'admin@test.local' }]));
    expect(page.actions).toEqual([...page.actions].sort());
    expect(page.actions).toEqual(expect.arrayContaining(['balance.adjust', 'faq.delete', 'order.refund', 'service.create']));
  });

  it('filters by a range of days, both ends included (UTC)', async () => {
    const day = await list('?from=2001-01-15&to=2001-01-15');
    expect(day.entries).toMatchObject([{ action: 'balance.adjust', details: { amountCents: 250, reason: 'old' } }]);
    expect(day.total).toBe(1);
    expect((await list('?to=2001-01-14')).total).toBe(0);
    expect((await list('?from=2001-01-16&to=2001-12-31')).total).toBe(0);
    const all = await list();
    expect((await list('?from=2001-01-16')).total).toBe(all.total - 1);
  });

  it('pages through the whole log, newest first, not just the latest entries', async () => {
    const actor = { id: 'paging-actor', email: 'pager@artim.az' };
    for (let i = 0; i < AUDIT_PAGE + 7; i++) await audit(database.db, actor, 'faq.update', { type: 'faq', id: i + 1 });
    const first = await list(`?actor=${actor.id}`);
    const second = await list(`?actor=${actor.id}&page=2`);
    expect(first).toMatchObject({ total: AUDIT_PAGE + 7, page: 1, pageSize: AUDIT_PAGE });
    expect(first.entries).toHaveLength(AUDIT_PAGE);
    expect(second.entries).toHaveLength(7);
    const ids = [...first.entries, ...second.entries].map((e: { id: number }) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(second.entries.at(-1).targetId).toBe('1');
    expect((await list(`?actor=${actor.id}&page=3`)).entries).toEqual([]);
  });

  it('refuses filters it does not know or cannot read with 422 VALIDATION_FAILED', async () => {
    for (const query of ['?page=0', '?page=x', '?from=2026-13-01', '?to=yesterday', '?from=2026-02-02&to=2026-02-01', '?action=DROP%20TABLE', '?lang=de', '?q=admin', `?actor=${'x'.repeat(101)}`]) {
      const res = await send('GET', `/api/admin/audit${query}`);
      expect(res.status, query).toBe(422);
      expect((await res.json()).error.code, query).toBe('VALIDATION_FAILED');
    }
  });
});
