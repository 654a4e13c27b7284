import { asc, desc, eq, sql } from 'drizzle-orm';
import type { BlogPostInput, FaqInput, LocalServiceInput } from '../../core/contracts/admin';
import { AppError } from '../../core/errors';
import type { Db } from '../db/client';
import { blogPosts, faqItems, localServices } from '../db/schema';
import { localServiceOrder } from './service';

/** The team's changes to the site's own content: blog posts, FAQ items and the agency's services. */

const notFound = () => new AppError('NOT_FOUND', 'Not found.');
const isUniqueViolation = (err: unknown) => {
  for (let e: any = err; e; e = e.cause) if (e.code === '23505') return true;
  return false;
};
/** A post address already taken is DUPLICATE, not a server error. */
const slugTaken = (err: unknown): never => {
  if (isUniqueViolation(err)) throw new AppError('DUPLICATE', 'This address is already used by another post.');
  throw err;
};

export const listBlogPosts = (db: Db) => db.select().from(blogPosts).orderBy(desc(blogPosts.publishedOn), desc(blogPosts.id));

export async function createBlogPost(db: Db, input: BlogPostInput) {
  const [row] = await db.insert(blogPosts).values(input).returning().catch(slugTaken);
  return row!;
}

/** NOT_FOUND when there is no such post, DUPLICATE when the address is another post's. */
export async function updateBlogPost(db: Db, id: number, input: BlogPostInput) {
  const [row] = await db.update(blogPosts).set({ ...input, updatedAt: new Date() }).where(eq(blogPosts.id, id)).returning().catch(slugTaken);
  if (!row) throw notFound();
  return row;
}

export async function deleteBlogPost(db: Db, id: number) {
  const [row] = await db.delete(blogPosts).where(eq(blogPosts.id, id)).returning();
  if (!row) throw notFound();
  return row;
}

export const listFaqItems = (db: Db) => db.select().from(faqItems).orderBy(asc(faqItems.orderIndex), asc(faqItems.id));

export async function createFaqItem(db: Db, input: FaqInput) {
  const [row] = await db.insert(faqItems).values(input).returning();
  return row!;
}

export async function updateFaqItem(db: Db, id: number, input: FaqInput) {
  const [row] = await db.update(faqItems).set({ ...input, updatedAt: new Date() }).where(eq(faqItems.id, id)).returning();
  if (!row) throw notFound();
  return row;
}

export async function deleteFaqItem(db: Db, id: number) {
  const [row] = await db.delete(faqItems).where(eq(faqItems.id, id)).returning();
  if (!row) throw notFound();
  return row;
}

/** Every local service, active or not, in the order the storefront lists them. */
/** How many of the agency's services are shown on the site. */
export async function countActiveLocalServices(db: Db): Promise<number> {
  const [s] = await db.select({ n: sql<number>`count(*)::int` }).from(localServices).where(eq(localServices.active, true));
  return s?.n ?? 0;
}

export const listLocalServices = (db: Db) => db.select().from(localServices).orderBy(...localServiceOrder);

export async function createLocalService(db: Db, input: LocalServiceInput) {
  const [row] = await db.insert(localServices).values(input).returning();
  return row!;
}

export async function updateLocalService(db: Db, id: number, input: LocalServiceInput) {
  const [row] = await db.update(localServices).set({ ...input, updatedAt: new Date() }).where(eq(localServices.id, id)).returning();
  if (!row) throw notFound();
  return row;
}

export async function deleteLocalService(db: Db, id: number) {
  const [row] = await db.delete(localServices).where(eq(localServices.id, id)).returning();
  if (!row) throw notFound();
  return row;
}
