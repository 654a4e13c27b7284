import { desc, eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { AppError } from '../../core/errors';
import { requirePermission } from '../auth';
import type { Db } from '../db/client';
import { devMailbox } from '../db/schema';

/**
 * `/api/dev/mailbox`: the mail kept when no SMTP server is configured, for reading reset links
 * while trying the site locally. It is mounted only outside production (api.ts) and answers
 * whom the permission table grants `mailbox:read` (admins): a reset link in it is the key to any
 * account, the admin's included.
 */
export function devMailboxRoutes(opts: { db: Db }) {
  return new Hono()
    .use('*', async (c, next) => {
      await requirePermission(c, 'mailbox:read');
      c.header('Cache-Control', 'no-store');
      await next();
    })
    .get('/', async (c) => {
      const rows = await opts.db
        .select({ id: devMailbox.id, to: devMailbox.to, subject: devMailbox.subject, createdAt: devMailbox.createdAt })
        .from(devMailbox)
        .orderBy(desc(devMailbox.id))
        .limit(100);
      return c.json({ messages: rows });
    })
    .get('/:id', async (c) => {
      const id = Number(c.req.param('id'));
      if (!Number.isSafeInteger(id) || id <= 0) throw new AppError('NOT_FOUND', 'No such message.');
      const [row] = await opts.db.select().from(devMailbox).where(eq(devMailbox.id, id)).limit(1);
      if (!row) throw new AppError('NOT_FOUND', 'No such message.');
      const links = [...row.text.matchAll(/https?:\/\/\S+/g)].map((m) => m[0]);
      return c.json({ message: { id: row.id, to: row.to, subject: row.subject, text: row.text, createdAt: row.createdAt, links } });
    });
}

/** The dev mailbox's routes with their answers, for the sandbox page's typed client. */
export type DevMailboxApiType = ReturnType<typeof devMailboxRoutes>;
