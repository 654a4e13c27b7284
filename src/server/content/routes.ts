import { Hono } from 'hono';
import { AppError } from '../../core/errors';
import { DEFAULT_LANGUAGE, isLanguage, type Language } from '../../core/i18n';
import type { AppDeps } from '../deps';
import { activeLocalService, activeLocalServices, publishedFaq, publishedPost, publishedPosts } from './service';

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
  app.get('/services', async (c) => c.json({ services: await activeLocalServices(db, langOf(c.req.query('lang'))) }));
  app.get('/services/:id', async (c) => {
    const raw = c.req.param('id');
    const id = /^\d{1,9}$/.test(raw) ? Number(raw) : 0;
    const service = id > 0 ? await activeLocalService(db, id, langOf(c.req.query('lang'))) : null;
    if (!service) throw new AppError('SERVICE_NOT_FOUND', 'Xidmət tapılmadı');
    return c.json(service);
  });
  return app;
}
