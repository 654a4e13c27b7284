import type { Context } from 'hono';
import { Hono } from 'hono';
import { z } from 'zod';
import {
  CONSULTATION_STATUSES,
  consultationSchema,
  consultationStatusSchema,
  contactMessageSchema,
  createTicketSchema,
  ticketMessageSchema,
  ticketStatusSchema,
} from '../../core/contracts/support';
import { DEFAULT_LANGUAGE, isLanguage, LANGUAGE_COOKIE, type Language } from '../../core/i18n';
import type { AppDeps } from '../deps';
import { accounts, requirePermission, requireUser, signedInOnly } from '../auth';
import type { Permission } from '../../core/permissions';
import { jsonBody, param, readJson } from '../http/body';
import { clientIp } from '../http/clientIp';
import { createRateLimiter, RATE_RULES, rateLimited } from '../http/rateLimit';
import {
  adminThread,
  contactCounts,
  createConsultation,
  createContactMessage,
  createTicket,
  deleteContactMessage,
  listAllTickets,
  listConsultations,
  listContactMessages,
  listOwnTickets,
  markContactReplied,
  openContactMessage,
  ownThread,
  postOwnMessage,
  replyToTicket,
  setConsultationStatus,
  setTicketStatus,
  type Actor,
  type SupportDeps,
} from './service';

export function supportDeps(deps: AppDeps): SupportDeps {
  return { db: deps.database.db, logger: deps.logger, mailer: accounts(deps).mailer, realtime: deps.realtime, publicUrl: deps.publicUrl };
}

function languageOf(c: Context): Language {
  const cookie = new RegExp(`(?:^|;\\s*)${LANGUAGE_COOKIE}=([a-z]{2})`).exec(c.req.header('cookie') ?? '')?.[1];
  return isLanguage(cookie) ? cookie : DEFAULT_LANGUAGE;
}

const noStore = (c: Context) => c.header('Cache-Control', 'no-store');

/**
 * Customer and public routes, mounted at `/api`: the signed-in customer's tickets
 * (`/support/tickets…`, every row filtered by owner), consultation requests (signed in) and the
 * public contact form.
 */
export function supportRoutes(deps: AppDeps) {
  const db = deps.database.db;
  const limiter = createRateLimiter(db);
  const ticketParam = param(z.object({ id: z.string() }));

  return (
    new Hono()
      .get('/support/tickets', signedInOnly, async (c) => {
        const user = await requireUser(c);
        noStore(c);
        return c.json({ tickets: await listOwnTickets(db, user.id) });
      })
      .post('/support/tickets', signedInOnly, jsonBody(createTicketSchema), async (c) => {
        const user = await requireUser(c);
        await limiter.consume(RATE_RULES.ticketsPerUser, user.id);
        return c.json({ ticket: await createTicket(supportDeps(deps), user.id, c.req.valid('json'), languageOf(c)) }, 201);
      })
      .get('/support/tickets/:id/messages', signedInOnly, ticketParam, async (c) => {
        const user = await requireUser(c);
        noStore(c);
        return c.json(await ownThread(db, user.id, c.req.valid('param').id));
      })
      .post('/support/tickets/:id/messages', signedInOnly, ticketParam, jsonBody(ticketMessageSchema), async (c) => {
        const user = await requireUser(c);
        await limiter.consume(RATE_RULES.ticketMessagesPerUser, user.id);
        return c.json({ message: await postOwnMessage(supportDeps(deps), user.id, c.req.valid('param').id, c.req.valid('json')) }, 201);
      })
      // Only well-formed requests count against the limit; the form checks the fields first.
      .post('/consultations', signedInOnly, jsonBody(consultationSchema), async (c) => {
        const user = await requireUser(c);
        await limiter.consume(RATE_RULES.consultationsPerUser, user.id);
        const consultation = await createConsultation(supportDeps(deps), user.id, c.req.valid('json'));
        return c.json({ consultation: { id: consultation.id } }, 201);
      })
      .post('/contact', rateLimited(db, RATE_RULES.contactPerIp, clientIp), jsonBody(contactMessageSchema), async (c) => {
        await createContactMessage(supportDeps(deps), c.req.valid('json'));
        // The same answer whether stored or caught by the honeypot.
        return c.json({ ok: true as const });
      })
  );
}

const consultationListQuery = z.object({ status: z.enum(CONSULTATION_STATUSES).optional() });

/**
 * The team's routes, mounted at `/api/admin` (guarded there already by admin/access.ts; each
 * handler checks its permission again so the router is safe wherever it is mounted). Moderators
 * answer; deleting a contact message is admin-only.
 */
export function supportAdminRoutes(deps: AppDeps) {
  const app = new Hono();
  const db = deps.database.db;
  // Checked per route rather than with `use('*')`: a sub-router's wildcard middleware would run
  // for every other router mounted under /admin as well.
  const staff =
    (permission: Permission, handler: (c: Context, actor: Actor) => Promise<Response>) =>
    async (c: Context) => {
      const user = await requirePermission(c, permission);
      noStore(c);
      return handler(c, { id: user.id, email: user.email });
    };
  const answer = (handler: (c: Context, actor: Actor) => Promise<Response>) => staff('support:answer', handler);

  app.get('/support/tickets', answer(async (c) => c.json({ tickets: await listAllTickets(db, c.req.query()) })));
  app.get('/support/tickets/:id', answer(async (c) => c.json(await adminThread(db, c.req.param('id')!))));
  app.post(
    '/support/tickets/:id/messages',
    answer(async (c, actor) => {
      const input = ticketMessageSchema.strict().parse(await readJson(c));
      return c.json({ message: await replyToTicket(supportDeps(deps), actor.id, c.req.param('id')!, input) }, 201);
    }),
  );
  app.patch(
    '/support/tickets/:id',
    answer(async (c, actor) => {
      const { status } = ticketStatusSchema.parse(await readJson(c));
      return c.json({ ticket: await setTicketStatus(supportDeps(deps), actor, c.req.param('id')!, status) });
    }),
  );

  app.get(
    '/consultations',
    answer(async (c) => {
      const { status } = consultationListQuery.parse(c.req.query());
      return c.json({ consultations: await listConsultations(db, status) });
    }),
  );
  app.patch(
    '/consultations/:id',
    answer(async (c, actor) => {
      const { status } = consultationStatusSchema.parse(await readJson(c));
      return c.json({ consultation: await setConsultationStatus(db, actor, c.req.param('id')!, status) });
    }),
  );

  app.get(
    '/contact-messages',
    answer(async (c) => {
      const [messages, counts] = await Promise.all([listContactMessages(db), contactCounts(db)]);
      return c.json({ messages, counts });
    }),
  );
  app.get('/contact-messages/:id', answer(async (c) => c.json({ message: await openContactMessage(db, c.req.param('id')!) })));
  app.post('/contact-messages/:id/replied', answer(async (c, actor) => c.json(await markContactReplied(db, actor, c.req.param('id')!))));
  app.delete(
    '/contact-messages/:id',
    staff('support:delete', async (c, actor) => {
      await deleteContactMessage(db, actor, c.req.param('id')!);
      return c.json({ ok: true });
    }),
  );

  return app;
}
