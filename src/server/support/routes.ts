import type { Context } from 'hono';
import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import { z } from 'zod';
import {
  CONSULTATION_STATUSES,
  consultationSchema,
  consultationStatusSchema,
  createTicketSchema,
  ticketListQuerySchema,
  ticketMessageSchema,
  ticketStatusSchema,
} from '../../core/contracts/support';
import { DEFAULT_LANGUAGE, isLanguage, LANGUAGE_COOKIE, type Language } from '../../core/i18n';
import type { AppDeps } from '../deps';
import { accounts, clientIp, requirePermission, requireUser, createRateLimiter, type RateRule } from '../auth';
import type { Permission } from '../../core/permissions';
import { jsonBody, pathParams, queryParams, readJson } from '../http/body';
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

const HOUR = 60 * 60;
/** Spam brakes. The contact form is public, so it is limited per address (5 per 15 minutes). */
export const SUPPORT_RATE_RULES = {
  contactPerIp: { name: 'contact:ip', limit: 5, windowSeconds: 15 * 60 },
  ticketsPerUser: { name: 'tickets:user', limit: 20, windowSeconds: HOUR },
  messagesPerUser: { name: 'ticket-messages:user', limit: 120, windowSeconds: HOUR },
  consultationsPerUser: { name: 'consultations:user', limit: 20, windowSeconds: HOUR },
} as const satisfies Record<string, RateRule>;

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
  const app = new Hono();
  const db = deps.database.db;
  const limiter = createRateLimiter(db);

  app.get('/support/tickets', async (c) => {
    const user = await requireUser(c);
    noStore(c);
    return c.json({ tickets: await listOwnTickets(db, user.id) });
  });

  app.post('/support/tickets', async (c) => {
    const user = await requireUser(c);
    const input = createTicketSchema.parse(await readJson(c));
    await limiter.consume(SUPPORT_RATE_RULES.ticketsPerUser, user.id);
    return c.json({ ticket: await createTicket(supportDeps(deps), user.id, input, languageOf(c)) }, 201);
  });

  app.get('/support/tickets/:id/messages', async (c) => {
    const user = await requireUser(c);
    noStore(c);
    return c.json(await ownThread(db, user.id, c.req.param('id')));
  });

  app.post('/support/tickets/:id/messages', async (c) => {
    const user = await requireUser(c);
    const input = ticketMessageSchema.parse(await readJson(c));
    await limiter.consume(SUPPORT_RATE_RULES.messagesPerUser, user.id);
    return c.json({ message: await postOwnMessage(supportDeps(deps), user.id, c.req.param('id'), input) }, 201);
  });

  app.post('/consultations', async (c) => {
    const user = await requireUser(c);
    // Only well-formed requests count against the limit; the form checks the fields first.
    const input = consultationSchema.parse(await readJson(c));
    await limiter.consume(SUPPORT_RATE_RULES.consultationsPerUser, user.id);
    const consultation = await createConsultation(supportDeps(deps), user.id, input);
    return c.json({ consultation: { id: consultation.id } }, 201);
  });

  app.post('/contact', async (c) => {
    await limiter.consume(SUPPORT_RATE_RULES.contactPerIp, clientIp(c));
    await createContactMessage(supportDeps(deps), await readJson(c));
    // The same answer whether stored or caught by the honeypot.
    return c.json({ ok: true });
  });

  return app;
}

const consultationListQuery = z.object({ status: z.enum(CONSULTATION_STATUSES).optional() });
const idParams = z.strictObject({ id: z.string() });

/**
 * The team's routes, mounted at `/api/admin` (guarded there already by admin/access.ts; each
 * route checks its permission again so the router is safe wherever it is mounted). Moderators
 * answer; deleting a contact message is admin-only.
 */
export function supportAdminRoutes(deps: AppDeps) {
  const db = deps.database.db;
  // Checked per route rather than with `use('*')`: a sub-router's wildcard middleware would run
  // for every other router mounted under /admin as well.
  const staff = (permission: Permission) =>
    createMiddleware<{ Variables: { actor: Actor } }>(async (c, next) => {
      const user = await requirePermission(c, permission);
      noStore(c);
      c.set('actor', { id: user.id, email: user.email });
      await next();
    });
  const answer = staff('support:answer');

  return new Hono()
    .get('/support/tickets', answer, queryParams(ticketListQuerySchema), async (c) => c.json({ tickets: await listAllTickets(db, c.req.valid('query')) }))
    .get('/support/tickets/:id', answer, pathParams(idParams), async (c) => c.json(await adminThread(db, c.req.valid('param').id)))
    .post('/support/tickets/:id/messages', answer, jsonBody(ticketMessageSchema.strict()), pathParams(idParams), async (c) =>
      c.json({ message: await replyToTicket(supportDeps(deps), c.var.actor.id, c.req.valid('param').id, c.req.valid('json')) }, 201),
    )
    .patch('/support/tickets/:id', answer, jsonBody(ticketStatusSchema), pathParams(idParams), async (c) =>
      c.json({ ticket: await setTicketStatus(supportDeps(deps), c.var.actor, c.req.valid('param').id, c.req.valid('json').status) }),
    )

    .get('/consultations', answer, queryParams(consultationListQuery), async (c) => c.json({ consultations: await listConsultations(db, c.req.valid('query').status) }))
    .patch('/consultations/:id', answer, jsonBody(consultationStatusSchema), pathParams(idParams), async (c) =>
      c.json({ consultation: await setConsultationStatus(db, c.var.actor, c.req.valid('param').id, c.req.valid('json').status) }),
    )

    .get('/contact-messages', answer, async (c) => {
      const [messages, counts] = await Promise.all([listContactMessages(db), contactCounts(db)]);
      return c.json({ messages, counts });
    })
    .get('/contact-messages/:id', answer, pathParams(idParams), async (c) => c.json({ message: await openContactMessage(db, c.req.valid('param').id) }))
    .post('/contact-messages/:id/replied', answer, pathParams(idParams), async (c) => c.json(await markContactReplied(db, c.var.actor, c.req.valid('param').id)))
    .delete('/contact-messages/:id', staff('support:delete'), pathParams(idParams), async (c) => {
      await deleteContactMessage(db, c.var.actor, c.req.valid('param').id);
      return c.json({ ok: true as const });
    });
}

/** The team's support routes with their inputs and answers, for the browser's typed client. */
export type SupportAdminApiType = ReturnType<typeof supportAdminRoutes>;
