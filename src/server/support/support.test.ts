import { and, eq } from 'drizzle-orm';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserEvent } from '../../core/contracts/events';
import { SUPPORT_LIMITS } from '../../core/contracts/support';
import { post, signIn, signUpUser, TEST_ORIGIN } from '../auth/testing';
import type { Database } from '../db/client';
import { auditLog, consultations, contactMessages, devMailbox, supportTicketMessages, supportTickets } from '../db/schema';
import { createLogger } from '../logger';
import { createRealtimeHub, type RealtimeHub } from '../realtime/hub';
import { saveSettings } from '../settings/service';
import { countOpenTickets } from './service';
import { createTestApp } from '../testing/app';
import { createTestDatabase } from '../testing/db';

let database: Database;
let app: Hono;
let hub: RealtimeHub;
let admin: string;
let alice: Awaited<ReturnType<typeof signUpUser>>;
let bob: Awaited<ReturnType<typeof signUpUser>>;

beforeAll(async () => {
  database = await createTestDatabase();
  hub = await createRealtimeHub(database, createLogger('silent'));
  ({ app } = await createTestApp(database, { realtime: hub }));
  admin = await signIn(app, 'admin@test.local', 'Admin-Pass-123!');
  alice = await signUpUser(app, { name: 'Alice Quliyeva' });
  bob = await signUpUser(app, { name: 'Bob Həsənov' });
});
afterAll(async () => {
  await hub.close();
  await database.close();
});

/** Any method, from our origin, with the given session (or none). */
function call(method: string, path: string, opts: { cookie?: string; body?: unknown; ip?: string } = {}) {
  const headers: Record<string, string> = { origin: TEST_ORIGIN };
  if (opts.cookie) headers.cookie = opts.cookie;
  if (opts.ip) headers['x-forwarded-for'] = opts.ip;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  return app.request(path, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
}
const get = (path: string, cookie?: string) => call('GET', path, { cookie });
const json = async <T = any>(res: Response): Promise<T> => (await res.json()) as T;
/** The fields a 422 names, from the central handler's `details.issues`. */
const invalidFields = async (res: Response) => {
  expect(res.status).toBe(422);
  const body = await json(res);
  expect(body.error.code).toBe('VALIDATION_FAILED');
  return (body.error.details.issues as { path: string }[]).map((i) => i.path).sort();
};

async function openTicket(cookie: string, body: Record<string, unknown> = {}) {
  const res = await call('POST', '/api/support/tickets', { cookie, body: { title: 'Order stuck', description: 'My order has been pending for a day.', ...body } });
  expect(res.status).toBe(201);
  return (await json(res)).ticket as { id: string; title: string; priority: string; status: string };
}

describe('who may call what', () => {
  it('answers 401 UNAUTHENTICATED to anonymous callers of the customer routes', async () => {
    const ticket = await openTicket(alice.cookie);
    const routes: [string, string, unknown?][] = [
      ['GET', '/api/support/tickets'],
      ['POST', '/api/support/tickets', { title: 'x', description: 'y' }],
      ['GET', `/api/support/tickets/${ticket.id}/messages`],
      ['POST', `/api/support/tickets/${ticket.id}/messages`, { message: 'hello' }],
      ['POST', '/api/consultations', { name: 'Ali', email: 'a@b.az', phone: '+994501234567', service: 'seo', message: 'Please call me back' }],
    ];
    for (const [method, path, body] of routes) {
      const res = await call(method, path, { body });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect((await json(res)).error.code).toBe('UNAUTHENTICATED');
    }
  });

  it('lets only admins reach the inbox, contact messages and consultations (401 anonymous, 403 customer)', async () => {
    const ticket = await openTicket(alice.cookie);
    const routes: [string, string, unknown?][] = [
      ['GET', '/api/admin/support/tickets'],
      ['GET', `/api/admin/support/tickets/${ticket.id}`],
      ['POST', `/api/admin/support/tickets/${ticket.id}/messages`, { message: 'hi' }],
      ['PATCH', `/api/admin/support/tickets/${ticket.id}`, { status: 'closed' }],
      ['GET', '/api/admin/consultations'],
      ['PATCH', '/api/admin/consultations/00000000-0000-4000-8000-000000000000', { status: 'handled' }],
      ['GET', '/api/admin/contact-messages'],
      ['GET', '/api/admin/contact-messages/00000000-0000-4000-8000-000000000000'],
      ['POST', '/api/admin/contact-messages/00000000-0000-4000-8000-000000000000/replied', {}],
      ['DELETE', '/api/admin/contact-messages/00000000-0000-4000-8000-000000000000'],
    ];
    for (const [method, path, body] of routes) {
      expect((await call(method, path, { body })).status, `anonymous ${method} ${path}`).toBe(401);
      const asCustomer = await call(method, path, { body, cookie: alice.cookie });
      expect(asCustomer.status, `customer ${method} ${path}`).toBe(403);
      expect((await json(asCustomer)).error.code).toBe('FORBIDDEN');
    }
    // Nothing the customer attempted took effect.
    const [row] = await database.db.select().from(supportTickets).where(eq(supportTickets.id, ticket.id));
    expect(row!.status).toBe('open');
    expect(await database.db.select().from(supportTicketMessages).where(eq(supportTicketMessages.ticketId, ticket.id))).toHaveLength(0);
    expect((await get('/api/admin/support/tickets', admin)).status).toBe(200);
    expect((await get('/api/admin/consultations', admin)).status).toBe(200);
    expect((await get('/api/admin/contact-messages', admin)).status).toBe(200);
  });
});

describe('customer tickets', () => {
  it('creates a ticket with priority normal and status open by default, trimmed', async () => {
    const ticket = await openTicket(bob.cookie, { title: '  Refund question  ' });
    expect(ticket).toMatchObject({ title: 'Refund question', priority: 'normal', status: 'open' });
    const urgent = await openTicket(bob.cookie, { priority: 'urgent' });
    expect(urgent.priority).toBe('urgent');
  });

  it.each([
    [{ description: 'no title' }, ['title']],
    [{ title: '   ', description: 'blank title' }, ['title']],
    [{ title: 'no description' }, ['description']],
    [{ title: 'blank description', description: ' \n ' }, ['description']],
    [{ title: 'x'.repeat(SUPPORT_LIMITS.ticketTitle + 1), description: 'long title' }, ['title']],
    [{ title: 'long description', description: 'x'.repeat(SUPPORT_LIMITS.ticketDescription + 1) }, ['description']],
    [{ title: 'bad priority', description: 'd', priority: 'critical' }, ['priority']],
    [{}, ['description', 'title']],
  ])('refuses %j naming %j', async (body, fields) => {
    const before = (await database.db.select().from(supportTickets)).length;
    expect(await invalidFields(await call('POST', '/api/support/tickets', { cookie: bob.cookie, body }))).toEqual(fields);
    expect((await database.db.select().from(supportTickets)).length).toBe(before);
  });

  it('lists only the customer’s own tickets, newest first', async () => {
    const carol = await signUpUser(app);
    const first = await openTicket(carol.cookie, { title: 'First' });
    const second = await openTicket(carol.cookie, { title: 'Second' });
    await openTicket(alice.cookie, { title: 'Alice private' });
    const { tickets } = await json<{ tickets: { id: string }[] }>(await get('/api/support/tickets', carol.cookie));
    expect(tickets.map((t) => t.id)).toEqual([second.id, first.id]);
  });

  it('keeps the thread oldest first, stores customer messages with is_admin false, and refuses a body that claims more', async () => {
    const ticket = await openTicket(alice.cookie);
    const claiming = await call('POST', `/api/support/tickets/${ticket.id}/messages`, { cookie: alice.cookie, body: { message: 'one', isAdmin: true } });
    expect(claiming.status).toBe(422);
    expect((await json(claiming)).error.code).toBe('VALIDATION_FAILED');
    for (const message of ['one', 'two', 'three']) {
      const res = await call('POST', `/api/support/tickets/${ticket.id}/messages`, { cookie: alice.cookie, body: { message } });
      expect(res.status).toBe(201);
      expect((await json(res)).message).toMatchObject({ message, isAdmin: false });
    }
    const thread = await json(await get(`/api/support/tickets/${ticket.id}/messages`, alice.cookie));
    expect(thread.ticket.id).toBe(ticket.id);
    expect(thread.messages.map((m: { message: string }) => m.message)).toEqual(['one', 'two', 'three']);
  });

  it('refuses an empty or whitespace message', async () => {
    const ticket = await openTicket(alice.cookie);
    for (const body of [{}, { message: '' }, { message: '   \n' }, { message: 'x'.repeat(SUPPORT_LIMITS.message + 1) }]) {
      expect(await invalidFields(await call('POST', `/api/support/tickets/${ticket.id}/messages`, { cookie: alice.cookie, body }))).toEqual(['message']);
    }
    expect(await database.db.select().from(supportTicketMessages).where(eq(supportTicketMessages.ticketId, ticket.id))).toHaveLength(0);
  });

  it('never lets a customer read or post to another customer’s ticket, and answers exactly as for a missing one', async () => {
    const ticket = await openTicket(alice.cookie, { title: 'Alice secret' });
    const missing = '00000000-0000-4000-8000-000000000000';
    const readOther = await get(`/api/support/tickets/${ticket.id}/messages`, bob.cookie);
    const readMissing = await get(`/api/support/tickets/${missing}/messages`, bob.cookie);
    expect(readOther.status).toBe(404);
    expect(await json(readOther)).toEqual(await json(readMissing));
    const postOther = await call('POST', `/api/support/tickets/${ticket.id}/messages`, { cookie: bob.cookie, body: { message: 'let me in' } });
    expect(postOther.status).toBe(404);
    expect(await database.db.select().from(supportTicketMessages).where(eq(supportTicketMessages.ticketId, ticket.id))).toHaveLength(0);
    expect((await get('/api/support/tickets/not-a-uuid/messages', bob.cookie)).status).toBe(404);
    const { tickets } = await json(await get('/api/support/tickets', bob.cookie));
    expect(tickets.some((t: { id: string }) => t.id === ticket.id)).toBe(false);
  });

  it('opens a resolved ticket again when the customer writes', async () => {
    const ticket = await openTicket(alice.cookie);
    await call('PATCH', `/api/admin/support/tickets/${ticket.id}`, { cookie: admin, body: { status: 'resolved' } });
    await call('POST', `/api/support/tickets/${ticket.id}/messages`, { cookie: alice.cookie, body: { message: 'Still broken' } });
    const [row] = await database.db.select().from(supportTickets).where(eq(supportTickets.id, ticket.id));
    expect(row!.status).toBe('open');
  });
});

describe('the team’s inbox', () => {
  it('filters by status and priority and searches title, description and e-mail (wildcards literal)', async () => {
    const dave = await signUpUser(app, { email: `dave-${Date.now()}@inbox.example` });
    const a = await openTicket(dave.cookie, { title: 'Payment failed twice', description: 'Card declined', priority: 'high' });
    const b = await openTicket(dave.cookie, { title: 'Question', description: 'How do refills work? 100% sure', priority: 'low' });
    await call('PATCH', `/api/admin/support/tickets/${b.id}`, { cookie: admin, body: { status: 'in_progress' } });
    const ids = async (query: string) =>
      ((await json(await get(`/api/admin/support/tickets?${query}`, admin))).tickets as { id: string }[]).map((t) => t.id);

    expect(await ids('q=payment+FAILED')).toEqual([a.id]);
    expect(await ids('q=refills')).toEqual([b.id]);
    expect((await ids(`q=${encodeURIComponent(dave.email)}`)).sort()).toEqual([a.id, b.id].sort());
    expect(await ids(`q=${encodeURIComponent('100%')}`)).toEqual([b.id]);
    expect(await ids(`q=${encodeURIComponent('%')}&priority=high`)).toEqual([]);
    const high = await ids('priority=high');
    expect(high).toContain(a.id);
    expect(high).not.toContain(b.id);
    const inProgress = await ids('status=in_progress');
    expect(inProgress).toContain(b.id);
    expect(inProgress).not.toContain(a.id);
    expect(await ids(`status=in_progress&q=${encodeURIComponent(dave.email)}`)).toEqual([b.id]);
    expect(await invalidFields(await get('/api/admin/support/tickets?status=pending', admin))).toEqual(['status']);

    const row = (await json(await get(`/api/admin/support/tickets?q=${encodeURIComponent(dave.email)}&priority=high`, admin))).tickets[0];
    expect(row).toMatchObject({ id: a.id, userEmail: dave.email, userName: 'Test User', messageCount: 0 });
  });

  it('replies with is_admin true, pushes it live to the customer and e-mails them in their language', async () => {
    const erin = await signUpUser(app, { name: 'Erin Əliyeva' });
    const res = await app.request('/api/support/tickets', {
      method: 'POST',
      headers: { origin: TEST_ORIGIN, cookie: `${erin.cookie}; lang=az`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Sifariş gecikir', description: 'Sifarişim hələ başlamayıb.' }),
    });
    const ticket = (await json(res)).ticket;
    const events: UserEvent[] = [];
    const arrived = new Promise<void>((resolve) => {
      const off = hub.subscribe(erin.id, (e) => {
        events.push(e);
        off();
        resolve();
      });
    });

    const reply = await call('POST', `/api/admin/support/tickets/${ticket.id}/messages`, { cookie: admin, body: { message: 'Salam! <b>Yoxlayırıq</b>.' } });
    expect(reply.status).toBe(201);
    expect((await json(reply)).message).toMatchObject({ isAdmin: true, message: 'Salam! <b>Yoxlayırıq</b>.' });
    await arrived;
    expect(events).toEqual([{ type: 'ticket', ticketId: ticket.id }]);

    const thread = await json(await get(`/api/support/tickets/${ticket.id}/messages`, erin.cookie));
    expect(thread.messages).toMatchObject([{ isAdmin: true, message: 'Salam! <b>Yoxlayırıq</b>.' }]);

    // Her mail besides the e-mail confirmation sent at sign-up.
    const mails = (await database.db.select().from(devMailbox).where(eq(devMailbox.to, erin.email))).filter((m) => !m.text.includes('/api/auth/verify-email'));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toContain('Müraciətinizə cavab: Sifariş gecikir');
    expect(mails[0]!.text).toContain('Salam! <b>Yoxlayırıq</b>.');
    expect(mails[0]!.text).toContain('http://localhost:3000/az/dashboard#support');
    expect(mails[0]!.html).toContain('&#60;b&#62;Yoxlayırıq');
    expect(mails[0]!.html).not.toContain('<b>Yoxlayırıq');
  });

  it('refuses an empty reply, answers 404 for an unknown ticket, and tells the other admins live', async () => {
    const ticket = await openTicket(alice.cookie);
    expect(await invalidFields(await call('POST', `/api/admin/support/tickets/${ticket.id}/messages`, { cookie: admin, body: { message: ' ' } }))).toEqual(['message']);
    expect((await call('POST', '/api/admin/support/tickets/00000000-0000-4000-8000-000000000000/messages', { cookie: admin, body: { message: 'x' } })).status).toBe(404);

    const adminId = (await json(await get('/api/me', admin))).user.id as string;
    const seen = new Promise<UserEvent>((resolve) => {
      const off = hub.subscribe(adminId, (e) => {
        off();
        resolve(e);
      });
    });
    await call('POST', `/api/support/tickets/${ticket.id}/messages`, { cookie: alice.cookie, body: { message: 'Any news?' } });
    expect(await seen).toEqual({ type: 'admin_ticket', ticketId: ticket.id });
  });

  it('changes the status, validates it and writes the change to the audit log', async () => {
    const ticket = await openTicket(alice.cookie);
    expect(await invalidFields(await call('PATCH', `/api/admin/support/tickets/${ticket.id}`, { cookie: admin, body: { status: 'done' } }))).toEqual(['status']);
    const res = await call('PATCH', `/api/admin/support/tickets/${ticket.id}`, { cookie: admin, body: { status: 'resolved' } });
    expect(res.status).toBe(200);
    expect((await json(res)).ticket.status).toBe('resolved');
    const { tickets } = await json(await get('/api/support/tickets', alice.cookie));
    expect(tickets.find((t: { id: string }) => t.id === ticket.id).status).toBe('resolved');
    const logged = await database.db.select().from(auditLog).where(and(eq(auditLog.targetId, ticket.id), eq(auditLog.action, 'support.ticket.status')));
    expect(logged).toMatchObject([{ actorEmail: 'admin@test.local', details: { from: 'open', to: 'resolved' } }]);
  });

  it('writes the team’s reply to the audit log with the ticket, and the customer’s reply not', async () => {
    const ticket = await openTicket(alice.cookie, { title: 'Refill please' });
    const logged = () => database.db.select().from(auditLog).where(eq(auditLog.targetId, ticket.id));
    expect((await call('POST', `/api/support/tickets/${ticket.id}/messages`, { cookie: alice.cookie, body: { message: 'Still nothing.' } })).status).toBe(201);
    expect(await logged()).toEqual([]);
    const res = await call('POST', `/api/admin/support/tickets/${ticket.id}/messages`, { cookie: admin, body: { message: 'We asked the provider.' } });
    expect(res.status).toBe(201);
    const message = (await json(res)).message as { id: string };
    expect(await logged()).toMatchObject([{ action: 'support.ticket.reply', actorEmail: 'admin@test.local', targetType: 'support_ticket', targetId: ticket.id, details: { messageId: message.id } }]);
    // The log names the ticket by its subject.
    const { entries } = await json(await get(`/api/admin/audit?action=support.ticket.reply`, admin));
    expect(entries.find((e: { targetId: string }) => e.targetId === ticket.id)).toMatchObject({ target: { label: 'Refill please' } });
  });
});

describe('consultations', () => {
  const valid = { name: 'Aysel', email: 'aysel@example.az', phone: '+994501234567', service: 'seo', message: 'Saytım üçün SEO lazımdır.' };

  it('stores a signed-in customer’s request as new', async () => {
    const res = await call('POST', '/api/consultations', { cookie: alice.cookie, body: valid });
    expect(res.status).toBe(201);
    const id = (await json(res)).consultation.id;
    const [row] = await database.db.select().from(consultations).where(eq(consultations.id, id));
    expect(row).toMatchObject({ ...valid, userId: alice.id, status: 'new' });
  });

  it.each([
    [{ name: 'A' }, 'name'],
    [{ name: '  A  ' }, 'name'],
    [{ email: 'not-an-email' }, 'email'],
    [{ email: '' }, 'email'],
    [{ phone: '123456789' }, 'phone'],
    [{ service: '' }, 'service'],
    [{ service: 'astrology' }, 'service'],
    [{ service: undefined }, 'service'],
    [{ message: 'too short' }, 'message'],
  ])('refuses %j', async (change, field) => {
    const res = await call('POST', '/api/consultations', { cookie: alice.cookie, body: { ...valid, ...change } });
    expect(await invalidFields(res)).toEqual([field]);
  });

  it('accepts the boundaries: a 2-character name, a 10-character phone, a 10-character message, every service', async () => {
    for (const service of ['smm', 'google_ads', 'youtube_ads', 'seo', 'logo', 'website', 'tv_radio', 'facebook_instagram_ads', 'social_engagement', 'instagram_engagement', 'tiktok_marketing', 'youtube_growth', 'general', 'other']) {
      const res = await call('POST', '/api/consultations', { cookie: bob.cookie, body: { ...valid, name: 'Al', phone: '0501234567', message: '1234567890', service } });
      expect(res.status, service).toBe(201);
    }
  });

  it('lists for admins, filters by status and marks handled (audited)', async () => {
    const res = await call('POST', '/api/consultations', { cookie: alice.cookie, body: { ...valid, name: 'Handle Me' } });
    const id = (await json(res)).consultation.id;
    const before = (await json(await get('/api/admin/consultations?status=new', admin))).consultations as { id: string }[];
    expect(before.map((c) => c.id)).toContain(id);
    const patched = await call('PATCH', `/api/admin/consultations/${id}`, { cookie: admin, body: { status: 'handled' } });
    expect((await json(patched)).consultation.status).toBe('handled');
    const handled = (await json(await get('/api/admin/consultations?status=handled', admin))).consultations as { id: string }[];
    expect(handled.map((c) => c.id)).toEqual([id]);
    expect(await invalidFields(await call('PATCH', `/api/admin/consultations/${id}`, { cookie: admin, body: { status: 'lost' } }))).toEqual(['status']);
    expect(await database.db.select().from(auditLog).where(eq(auditLog.targetId, id))).toHaveLength(1);
  });
});

describe('contact messages', () => {
  const valid = { name: 'Nigar', email: 'nigar@example.az', subject: 'Əməkdaşlıq', message: 'Sizinlə işləmək istəyirik.' };
  let ipCounter = 0;
  const freshIp = () => `192.0.2.${++ipCounter}`;

  it('stores a public message with status new and answers ok', async () => {
    const res = await post(app, '/api/contact', { ...valid, subject: 'Stored once' }, { ip: freshIp() });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ ok: true });
    const rows = await database.db.select().from(contactMessages).where(eq(contactMessages.subject, 'Stored once'));
    expect(rows).toMatchObject([{ ...valid, subject: 'Stored once', status: 'new' }]);
  });

  it.each(['name', 'email', 'subject', 'message'] as const)('requires %s', async (field) => {
    for (const value of [undefined, '', '   ']) {
      const res = await post(app, '/api/contact', { ...valid, [field]: value }, { ip: freshIp() });
      expect(await invalidFields(res)).toEqual([field]);
    }
  });

  it('refuses a malformed e-mail', async () => {
    expect(await invalidFields(await post(app, '/api/contact', { ...valid, email: 'nigar(at)example' }, { ip: freshIp() }))).toEqual(['email']);
  });

  it('answers a filled honeypot like a success and stores nothing', async () => {
    const before = (await database.db.select().from(contactMessages)).length;
    const res = await post(app, '/api/contact', { ...valid, subject: 'Cheap pills', website: 'http://spam.example' }, { ip: freshIp() });
    expect(res.status).toBe(200);
    expect(await json(res)).toEqual({ ok: true });
    expect((await database.db.select().from(contactMessages)).length).toBe(before);
  });

  it('allows 5 messages per address in 15 minutes, then answers 429 RATE_LIMITED; another address is unaffected', async () => {
    const ip = freshIp();
    for (let i = 0; i < 5; i++) expect((await post(app, '/api/contact', { ...valid, subject: `Burst ${i}` }, { ip })).status).toBe(200);
    const refused = await post(app, '/api/contact', { ...valid, subject: 'Burst 5' }, { ip });
    expect(refused.status).toBe(429);
    expect((await json(refused)).error.code).toBe('RATE_LIMITED');
    expect(await database.db.select().from(contactMessages).where(eq(contactMessages.subject, 'Burst 5'))).toHaveLength(0);
    expect((await post(app, '/api/contact', { ...valid, subject: 'Other address' }, { ip: freshIp() })).status).toBe(200);
  });

  it('e-mails notification_email when it is set, and nobody when it is not', async () => {
    const count = async () => (await database.db.select().from(devMailbox).where(eq(devMailbox.to, 'team@artim.test'))).length;
    await post(app, '/api/contact', { ...valid, subject: 'Nobody told' }, { ip: freshIp() });
    expect(await count()).toBe(0);
    await saveSettings(database.db, { notification_email: 'team@artim.test' });
    try {
      await post(app, '/api/contact', { ...valid, subject: 'Tell the team' }, { ip: freshIp() });
      const mails = await database.db.select().from(devMailbox).where(eq(devMailbox.to, 'team@artim.test'));
      expect(mails).toHaveLength(1);
      expect(mails[0]!.subject).toContain('Tell the team');
      expect(mails[0]!.text).toContain('nigar@example.az');
      expect(mails[0]!.text).toContain('Sizinlə işləmək istəyirik.');
    } finally {
      await saveSettings(database.db, { notification_email: '' });
    }
  });

  it('moves new → read on opening, new or read → replied, keeps replied, counts each, and deletes (audited)', async () => {
    const subjects = ['Lifecycle A', 'Lifecycle B'];
    for (const subject of subjects) await post(app, '/api/contact', { ...valid, subject }, { ip: freshIp() });
    const list = await json(await get('/api/admin/contact-messages', admin));
    const [a, b] = subjects.map((s) => list.messages.find((m: { subject: string }) => m.subject === s)) as { id: string; status: string }[];
    expect(a!.status).toBe('new');
    const counts0 = list.counts;
    expect(counts0.total).toBe(counts0.new + counts0.read + counts0.replied);

    const opened = await json(await get(`/api/admin/contact-messages/${a!.id}`, admin));
    expect(opened.message.status).toBe('read');
    const counts1 = (await json(await get('/api/admin/contact-messages', admin))).counts;
    expect(counts1).toEqual({ ...counts0, new: counts0.new - 1, read: counts0.read + 1 });

    const fromRead = await json(await call('POST', `/api/admin/contact-messages/${a!.id}/replied`, { cookie: admin, body: {} }));
    expect(fromRead).toMatchObject({ changed: true, message: { status: 'replied' } });
    const fromNew = await json(await call('POST', `/api/admin/contact-messages/${b!.id}/replied`, { cookie: admin, body: {} }));
    expect(fromNew).toMatchObject({ changed: true, message: { status: 'replied' } });
    const again = await json(await call('POST', `/api/admin/contact-messages/${a!.id}/replied`, { cookie: admin, body: {} }));
    expect(again).toMatchObject({ changed: false, message: { status: 'replied' } });
    // Opening a replied message leaves it replied.
    expect((await json(await get(`/api/admin/contact-messages/${a!.id}`, admin))).message.status).toBe('replied');
    const counts2 = (await json(await get('/api/admin/contact-messages', admin))).counts;
    expect(counts2).toEqual({ ...counts0, new: counts0.new - 2, replied: counts0.replied + 2 });

    const del = await call('DELETE', `/api/admin/contact-messages/${a!.id}`, { cookie: admin });
    expect(del.status).toBe(200);
    expect((await get(`/api/admin/contact-messages/${a!.id}`, admin)).status).toBe(404);
    expect((await call('DELETE', `/api/admin/contact-messages/${a!.id}`, { cookie: admin })).status).toBe(404);
    const actions = (await database.db.select().from(auditLog).where(eq(auditLog.targetId, a!.id))).map((r) => r.action).sort();
    expect(actions).toEqual(['contact_message.delete', 'contact_message.replied']);
  });

  it('returns a stored status it does not know as it is, and can still mark it replied', async () => {
    const [row] = await database.db.insert(contactMessages).values({ ...valid, status: 'archived' }).returning();
    const list = await json(await get('/api/admin/contact-messages', admin));
    expect(list.messages.find((m: { id: string }) => m.id === row!.id).status).toBe('archived');
    expect(list.counts.total).toBe(list.counts.new + list.counts.read + list.counts.replied + 1);
    expect((await json(await call('POST', `/api/admin/contact-messages/${row!.id}/replied`, { cookie: admin, body: {} }))).message.status).toBe('replied');
  });
});

describe('moderators', () => {
  it('answer tickets, consultations and contact messages, audited under their own name; deleting a message stays with admins', async () => {
    const mod = await signUpUser(app, { name: 'Mona Moderator' });
    expect((await call('POST', `/api/admin/users/${mod.id}/roles`, { cookie: admin, body: { role: 'moderator' } })).status).toBe(201);
    const ticket = await openTicket(alice.cookie);
    expect((await get('/api/admin/support/tickets', mod.cookie)).status).toBe(200);
    expect((await get(`/api/admin/support/tickets/${ticket.id}`, mod.cookie)).status).toBe(200);
    const reply = await call('POST', `/api/admin/support/tickets/${ticket.id}/messages`, { cookie: mod.cookie, body: { message: 'Looking into it.' } });
    expect(reply.status).toBe(201);
    expect((await json(reply)).message.isAdmin).toBe(true);
    expect((await call('PATCH', `/api/admin/support/tickets/${ticket.id}`, { cookie: mod.cookie, body: { status: 'resolved' } })).status).toBe(200);

    const consultation = (await json(await call('POST', '/api/consultations', { cookie: alice.cookie, body: { name: 'Aysel', email: 'aysel@example.az', phone: '+994501234567', service: 'seo', message: 'Please call me back.' } }))).consultation;
    expect((await call('PATCH', `/api/admin/consultations/${consultation.id}`, { cookie: mod.cookie, body: { status: 'handled' } })).status).toBe(200);

    await call('POST', '/api/contact', { body: { name: 'Visitor', email: 'visitor@example.az', subject: 'Question', message: 'How long does delivery take?' }, ip: '203.0.113.77' });
    const { messages } = await json(await get('/api/admin/contact-messages', mod.cookie));
    const message = messages.find((m: { email: string }) => m.email === 'visitor@example.az');
    expect((await call('POST', `/api/admin/contact-messages/${message.id}/replied`, { cookie: mod.cookie, body: {} })).status).toBe(200);
    const refused = await call('DELETE', `/api/admin/contact-messages/${message.id}`, { cookie: mod.cookie });
    expect(refused.status).toBe(403);
    expect(await database.db.select().from(contactMessages).where(eq(contactMessages.id, message.id))).toHaveLength(1);

    const logged = await database.db.select().from(auditLog).where(eq(auditLog.actorId, mod.id));
    expect(logged.map((l) => l.action).sort()).toEqual(['contact_message.replied', 'support.consultation.status', 'support.ticket.reply', 'support.ticket.status']);
    expect(logged.every((l) => l.actorEmail === mod.email)).toBe(true);
  });

  it('are told live of a new ticket, as admins are: whoever the table lets answer tickets', async () => {
    const mod = await signUpUser(app, { name: 'Murad Moderator' });
    expect((await call('POST', `/api/admin/users/${mod.id}/roles`, { cookie: admin, body: { role: 'moderator' } })).status).toBe(201);
    const seen = new Promise<UserEvent>((resolve) => {
      const off = hub.subscribe(mod.id, (e) => {
        off();
        resolve(e);
      });
    });
    const ticket = await openTicket(alice.cookie);
    expect(await seen).toEqual({ type: 'admin_ticket', ticketId: ticket.id });
  });
});

describe('the settings page’s ticket count', () => {
  it('counts the tickets waiting for the team: open and in progress, not resolved or closed', async () => {
    const before = await countOpenTickets(database.db);
    const ticket = (status: 'open' | 'in_progress' | 'resolved' | 'closed') => ({ userId: alice.id, title: `count ${status}`, description: 'x', status });
    await database.db.insert(supportTickets).values([ticket('open'), ticket('in_progress'), ticket('resolved'), ticket('closed')]);
    expect(await countOpenTickets(database.db)).toBe(before + 2);
  });
});
