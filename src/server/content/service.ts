import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { FaqEntry, LocalService, Post, PostSummary } from '../../core/contracts/content';
import type { Language } from '../../core/i18n';
import type { Db } from '../db/client';
import { blogPosts, faqItems, localServices } from '../db/schema';

/** Public content: published blog posts and FAQ in one language, and active local services. */
export async function publishedPosts(db: Db, lang: Language): Promise<PostSummary[]> {
  const rows = await db.select().from(blogPosts).where(eq(blogPosts.published, true)).orderBy(desc(blogPosts.publishedOn), desc(blogPosts.id));
  return rows.map((p) => ({ slug: p.slug, title: p.title[lang], excerpt: p.excerpt[lang], publishedOn: p.publishedOn, updatedAt: p.updatedAt.toISOString() }));
}

export async function publishedPost(db: Db, slug: string, lang: Language): Promise<Post | null> {
  const [p] = await db.select().from(blogPosts).where(and(eq(blogPosts.slug, slug), eq(blogPosts.published, true)));
  return p ? { slug: p.slug, title: p.title[lang], excerpt: p.excerpt[lang], body: p.body[lang], publishedOn: p.publishedOn } : null;
}

export async function publishedFaq(db: Db, lang: Language): Promise<FaqEntry[]> {
  const rows = await db.select().from(faqItems).where(eq(faqItems.published, true)).orderBy(asc(faqItems.orderIndex), asc(faqItems.id));
  return rows.map((f) => ({ id: f.id, question: f.question[lang], answer: f.answer[lang] }));
}

/** The order services are listed in everywhere: category, then position, then price (on request last). */
export const localServiceOrder = [asc(localServices.category), asc(localServices.orderIndex), sql`${localServices.priceQepik} asc nulls last`, asc(localServices.id)];

type LocalServiceRow = typeof localServices.$inferSelect;

function localServiceIn(row: LocalServiceRow, lang: Language): LocalService {
  return {
    id: row.id,
    name: row.name[lang],
    description: row.description[lang],
    details: row.details[lang],
    benefits: row.benefits[lang]
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean),
    category: row.category,
    priceQepik: row.priceQepik,
    platform: row.platform,
    icon: row.icon,
    orderIndex: row.orderIndex,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Active local services in one language, in listing order. */
export async function activeLocalServices(db: Db, lang: Language): Promise<LocalService[]> {
  const rows = await db.select().from(localServices).where(eq(localServices.active, true)).orderBy(...localServiceOrder);
  return rows.map((r) => localServiceIn(r, lang));
}

/** One active local service in one language; null when unknown or inactive. */
export async function activeLocalService(db: Db, id: number, lang: Language): Promise<LocalService | null> {
  const [row] = await db.select().from(localServices).where(and(eq(localServices.id, id), eq(localServices.active, true)));
  return row ? localServiceIn(row, lang) : null;
}
