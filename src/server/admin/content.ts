import { Hono } from 'hono';
import { blogPostInputSchema, faqInputSchema, numericIdParamsSchema } from '../../core/contracts/admin';
import { AppError } from '../../core/errors';
import type { AppDeps } from '../deps';
import { staffActor } from '../auth';
import { createBlogPost, createFaqItem, deleteBlogPost, deleteFaqItem, listBlogPosts, listFaqItems, updateBlogPost, updateFaqItem } from '../content';
import { jsonBody, param } from '../http/body';
import { audit } from './audit';

const idParam = param(numericIdParamsSchema, () => new AppError('NOT_FOUND', 'Not found.'));

/** Blog posts and FAQ items in three languages. */
export function adminContentRoutes(deps: AppDeps) {
  const db = deps.database.db;

  return (
    new Hono()
      // Pages kept for visitors (web/pageCache.ts) show posts and questions: a change empties them.
      .use('*', async (c, next) => {
        await next();
        if (c.req.method !== 'GET' && c.res.status < 400) await deps.realtime?.publish('*', { type: 'content' }).catch(() => {});
      })

      .get('/blog', async (c) => c.json({ posts: await listBlogPosts(db) }))
      .post('/blog', jsonBody(blogPostInputSchema), async (c) => {
        const actor = staffActor(c);
        const input = c.req.valid('json');
        const row = await createBlogPost(db, input);
        await audit(db, actor, 'blog.create', { type: 'blog', id: row.id }, { slug: input.slug, published: input.published });
        return c.json(row, 201);
      })
      .put('/blog/:id', jsonBody(blogPostInputSchema), idParam, async (c) => {
        const actor = staffActor(c);
        const { id } = c.req.valid('param');
        const input = c.req.valid('json');
        const row = await updateBlogPost(db, id, input);
        await audit(db, actor, 'blog.update', { type: 'blog', id }, { slug: input.slug, published: input.published });
        return c.json(row);
      })
      .delete('/blog/:id', idParam, async (c) => {
        const actor = staffActor(c);
        const { id } = c.req.valid('param');
        const row = await deleteBlogPost(db, id);
        await audit(db, actor, 'blog.delete', { type: 'blog', id }, { slug: row.slug });
        return c.body(null, 204);
      })

      .get('/faq', async (c) => c.json({ items: await listFaqItems(db) }))
      .post('/faq', jsonBody(faqInputSchema), async (c) => {
        const actor = staffActor(c);
        const row = await createFaqItem(db, c.req.valid('json'));
        await audit(db, actor, 'faq.create', { type: 'faq', id: row.id });
        return c.json(row, 201);
      })
      .put('/faq/:id', jsonBody(faqInputSchema), idParam, async (c) => {
        const actor = staffActor(c);
        const { id } = c.req.valid('param');
        const row = await updateFaqItem(db, id, c.req.valid('json'));
        await audit(db, actor, 'faq.update', { type: 'faq', id });
        return c.json(row);
      })
      .delete('/faq/:id', idParam, async (c) => {
        const actor = staffActor(c);
        const { id } = c.req.valid('param');
        await deleteFaqItem(db, id);
        await audit(db, actor, 'faq.delete', { type: 'faq', id });
        return c.body(null, 204);
      })
  );
}
