import { eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { AppError } from '../../core/errors';
import { DEFAULT_LANGUAGE, isLanguage, type Language } from '../../core/i18n';
import type { AppDeps } from '../app';
import { localServices } from '../db/schema';
import { activeLocalServices, publishedFaq, publishedPost, publishedPosts } from './service';

const langOf = (v: string | undefined): Language => (isLanguage(v) ? v : DEFAULT_LANGUAGE);

/** Public content API: blog, FAQ and the agency's own services. */
export function contentRoutes(deps: AppDeps) {
  const app = new Hono();
  const db = deps.database.db;
  app.get('/blog', async (c) => c.json({ posts: await publishedPosts(db, langOf(c.req.query('lang'))) }));
  app.get('/blog/:slug', async (c) => {
    const post = await publishedPost(db, c.req.param('slug').slice(0, 120), langOf(c.req.query('lang')));
    if (!post) throw new AppError('NOT_FOUND', 'Not found.');
    return c.json(post);
  });
  app.get('/faq', async (c) => c.json({ items: await publishedFaq(db, langOf(c.req.query('lang'))) }));
  app.get('/services', async (c) => c.json({ services: await activeLocalServices(db) }));
  app.get('/services/:id', async (c) => {
    const id = Number(c.req.param('id'));
    if (!Number.isSafeInteger(id) || id <= 0) throw new AppError('SERVICE_NOT_FOUND', 'Xidmət tapılmadı');
    const [row] = await db.select().from(localServices).where(eq(localServices.id, id));
    if (!row || !row.active) throw new AppError('SERVICE_NOT_FOUND', 'Xidmət tapılmadı');
    return c.json(row);
  });
  return app;
}
