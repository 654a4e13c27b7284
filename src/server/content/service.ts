import { and, asc, desc, eq } from 'drizzle-orm';
import type { FaqEntry, Post, PostSummary } from '../../core/contracts/content';
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

/** Active local services ordered by category, then price (spec 01 §7). */
export async function activeLocalServices(db: Db) {
  return db.select().from(localServices).where(eq(localServices.active, true)).orderBy(asc(localServices.category), asc(localServices.priceQepik), asc(localServices.orderIndex));
}
