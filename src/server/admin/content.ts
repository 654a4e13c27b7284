import { asc, desc, eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { blogPostInputSchema, faqInputSchema } from '../../core/contracts/admin';
import { AppError } from '../../core/errors';
import type { AppDeps } from '../deps';
import { requireAdmin } from '../auth';
import { blogPosts, faqItems } from '../db/schema';
import { jsonBody } from '../http/body';
import { audit } from './audit';

const idParam = (value: string) => {
  const id = Number(value);
  if (!Number.isSafeInteger(id) || id <= 0) throw new AppError('NOT_FOUND', 'Not found.');
  return id;
};
const uniqueViolation = (err: unknown) => {
  for (let e: any = err; e; e = e.cause) if (e.code === '23505') return true;
  return false;
};

/** Blog posts and FAQ items in three languages. */
export function adminContentRoutes(deps: AppDeps) {
  const app = new Hono();
  const db = deps.database.db;
  // Pages kept for visitors (web/pageCache.ts) show posts and questions: a change empties them.
  app.use('*', async (c, next) => {
    await next();
    if (c.req.method !== 'GET' && c.res.status < 400) await deps.realtime?.publish('*', { type: 'content' }).catch(() => {});
  });

  app.get('/blog', async (c) => c.json({ posts: await db.select().from(blogPosts).orderBy(desc(blogPosts.publishedOn), desc(blogPosts.id)) }));
  app.post('/blog', jsonBody(blogPostInputSchema), async (c) => {
    const actor = await requireAdmin(c);
    const input = c.req.valid('json');
    try {
      const [row] = await db.insert(blogPosts).values(input).returning();
      await audit(db, actor, 'blog.create', { type: 'blog', id: row!.id }, { slug: input.slug, published: input.published });
      return c.json(row, 201);
    } catch (err) {
      if (uniqueViolation(err)) throw new AppError('DUPLICATE', 'This address is already used by another post.');
      throw err;
    }
  });
  app.put('/blog/:id', jsonBody(blogPostInputSchema), async (c) => {
    const actor = await requireAdmin(c);
    const id = idParam(c.req.param('id'));
    const input = c.req.valid('json');
    try {
      const [row] = await db.update(blogPosts).set({ ...input, updatedAt: new Date() }).where(eq(blogPosts.id, id)).returning();
      if (!row) throw new AppError('NOT_FOUND', 'Not found.');
      await audit(db, actor, 'blog.update', { type: 'blog', id }, { slug: input.slug, published: input.published });
      return c.json(row);
    } catch (err) {
      if (uniqueViolation(err)) throw new AppError('DUPLICATE', 'This address is already used by another post.');
      throw err;
    }
  });
  app.delete('/blog/:id', async (c) => {
    const actor = await requireAdmin(c);
    const id = idParam(c.req.param('id'));
    const [row] = await db.delete(blogPosts).where(eq(blogPosts.id, id)).returning();
    if (!row) throw new AppError('NOT_FOUND', 'Not found.');
    await audit(db, actor, 'blog.delete', { type: 'blog', id }, { slug: row.slug });
    return c.body(null, 204);
  });

  app.get('/faq', async (c) => c.json({ items: await db.select().from(faqItems).orderBy(asc(faqItems.orderIndex), asc(faqItems.id)) }));
  app.post('/faq', jsonBody(faqInputSchema), async (c) => {
    const actor = await requireAdmin(c);
    const input = c.req.valid('json');
    const [row] = await db.insert(faqItems).values(input).returning();
    await audit(db, actor, 'faq.create', { type: 'faq', id: row!.id });
    return c.json(row, 201);
  });
  app.put('/faq/:id', jsonBody(faqInputSchema), async (c) => {
    const actor = await requireAdmin(c);
    const id = idParam(c.req.param('id'));
    const input = c.req.valid('json');
    const [row] = await db.update(faqItems).set({ ...input, updatedAt: new Date() }).where(eq(faqItems.id, id)).returning();
    if (!row) throw new AppError('NOT_FOUND', 'Not found.');
    await audit(db, actor, 'faq.update', { type: 'faq', id });
    return c.json(row);
  });
  app.delete('/faq/:id', async (c) => {
    const actor = await requireAdmin(c);
    const id = idParam(c.req.param('id'));
    const [row] = await db.delete(faqItems).where(eq(faqItems.id, id)).returning();
    if (!row) throw new AppError('NOT_FOUND', 'Not found.');
    await audit(db, actor, 'faq.delete', { type: 'faq', id });
    return c.body(null, 204);
  });
  return app;
}
