import { Hono } from 'hono';
import { z } from 'zod';
import { languageQuerySchema } from '../../core/contracts/language';
import { AppError } from '../../core/errors';
import type { AppDeps } from '../deps';
import { param, query } from '../http/body';
import { activeLocalService, activeLocalServices, publishedFaq, publishedPost, publishedPosts } from './service';

const lang = query(languageQuerySchema);

/** Public content API: blog, FAQ and the agency's own services. */
export function contentRoutes(deps: AppDeps) {
  const db = deps.database.db;
  return new Hono()
    .get('/blog', lang, async (c) => c.json({ posts: await publishedPosts(db, c.req.valid('query').lang) }))
    .get('/blog/:slug', param(z.object({ slug: z.string().transform((slug) => slug.slice(0, 120)) })), lang, async (c) => {
      const post = await publishedPost(db, c.req.valid('param').slug, c.req.valid('query').lang);
      if (!post) throw new AppError('NOT_FOUND', 'Not found.');
      return c.json(post);
    })
    .get('/faq', lang, async (c) => c.json({ items: await publishedFaq(db, c.req.valid('query').lang) }))
    .get('/services', lang, async (c) => c.json({ services: await activeLocalServices(db, c.req.valid('query').lang) }))
    .get('/services/:id', param(z.object({ id: z.string().transform((raw) => (/^\d{1,9}$/.test(raw) ? Number(raw) : 0)) })), lang, async (c) => {
      const { id } = c.req.valid('param');
      const service = id > 0 ? await activeLocalService(db, id, c.req.valid('query').lang) : null;
      if (!service) throw new AppError('SERVICE_NOT_FOUND', 'Xidmət tapılmadı');
      return c.json(service);
    });
}
