import type { Context } from 'hono';
import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import { z } from 'zod';
import {
  CONSULTATION_STATUSES,
  consultationSchema,
  consultationStatusSchema,
  contactMessageSchema,
  createTicketSchema,
  ticketListQuerySchema,
  ticketMessageSchema,
  ticketStatusSchema,
} from '../../core/contracts/support';
import { requestLanguage, type Language } from '../../core/i18n';
import type { AppDeps } from '../deps';
import { accounts, requireUser, signedInOnly, staffActor } from '../auth';
import { ordersDeps } from '../orders';
import { jsonBody, param, query } from '../http/body';
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
  return {
    db: deps.database.db,
    logger: deps.logger,
    mailer: accounts(deps).mailer,
    realtime: deps.realtime,
    publicUrl: deps.publicUrl,
    orders: deps.providers ? ordersDeps(deps) : undefined,
  };
}

const languageOf = (c: Context): Language => requestLanguage(c.req.header('cookie'), c.req.header('accept-language'));

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
const idParams = z.strictObject({ id: z.string() });

/**
 * The team's routes, mounted at `/api/admin` behind the admin gate (admin/access.ts), which alone
 * decides from the permission table who may use each one: moderators answer; deleting a contact
 * message is admin-only. Each route takes the member the gate admitted as its actor, and refuses
 * when it was reached without the gate.
 */
export function supportAdminRoutes(deps: AppDeps) {
  const db = deps.database.db;
  // Per route rather than with `use('*')`: a sub-router's wildcard middleware would run for every
  // other router mounted under /admin as well.
  const admitted = createMiddleware<{ Variables: { actor: Actor } }>(async (c, next) => {
    const user = staffActor(c);
    noStore(c);
    c.set('actor', { id: user.id, email: user.email });
    await next();
  });

  return new Hono()
    .get('/support/tickets', admitted, query(ticketListQuerySchema), async (c) => c.json({ tickets: await listAllTickets(db, c.req.valid('query')) }))
    .get('/support/tickets/:id', admitted, param(idParams), async (c) => c.json(await adminThread(db, c.req.valid('param').id)))
    .post('/support/tickets/:id/messages', admitted, jsonBody(ticketMessageSchema.strict()), param(idParams), async (c) =>
      c.json({ message: await replyToTicket(supportDeps(deps), c.var.actor, c.req.valid('param').id, c.req.valid('json')) }, 201),
    )
    .patch('/support/tickets/:id', admitted, jsonBody(ticketStatusSchema), param(idParams), async (c) =>
      c.json({ ticket: await setTicketStatus(supportDeps(deps), c.var.actor, c.req.valid('param').id, c.req.valid('json').status) }),
    )

    .get('/consultations', admitted, query(consultationListQuery), async (c) => c.json({ consultations: await listConsultations(db, c.req.valid('query').status) }))
    .patch('/consultations/:id', admitted, jsonBody(consultationStatusSchema), param(idParams), async (c) =>
      c.json({ consultation: await setConsultationStatus(db, c.var.actor, c.req.valid('param').id, c.req.valid('json').status) }),
    )

    .get('/contact-messages', admitted, async (c) => {
      const [messages, counts] = await Promise.all([listContactMessages(db), contactCounts(db)]);
      return c.json({ messages, counts });
    })
    .get('/contact-messages/:id', admitted, param(idParams), async (c) => c.json({ message: await openContactMessage(db, c.req.valid('param').id) }))
    .post('/contact-messages/:id/replied', admitted, param(idParams), async (c) => c.json(await markContactReplied(db, c.var.actor, c.req.valid('param').id)))
    .delete('/contact-messages/:id', admitted, param(idParams), async (c) => {
      await deleteContactMessage(db, c.var.actor, c.req.valid('param').id);
      return c.json({ ok: true as const });
    });
}

/** The team's support routes with their inputs and answers, for the browser's typed client. */
export type SupportAdminApiType = ReturnType<typeof supportAdminRoutes>;
