import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client';
import { createTestDatabase } from '../testing/db';
import {
  countActiveLocalServices,
  createBlogPost,
  createFaqItem,
  createLocalService,
  deleteBlogPost,
  deleteFaqItem,
  deleteLocalService,
  listBlogPosts,
  listFaqItems,
  listLocalServices,
  updateBlogPost,
  updateFaqItem,
  updateLocalService,
} from './manage';

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

const text = (s: string) => ({ az: `${s} az`, tr: `${s} tr`, en: `${s} en` });
const post = (slug: string) => ({ slug, title: text('T'), excerpt: text('E'), body: text('B'), published: true, publishedOn: '2026-01-02' });

describe('the team’s content changes', () => {
  it('blog posts: an address used by another post is DUPLICATE, an unknown id NOT_FOUND', async () => {
    const a = await createBlogPost(database.db, post('first-post'));
    const b = await createBlogPost(database.db, post('second-post'));
    await expect(createBlogPost(database.db, post('first-post'))).rejects.toMatchObject({ code: 'DUPLICATE' });
    await expect(updateBlogPost(database.db, b.id, post('first-post'))).rejects.toMatchObject({ code: 'DUPLICATE' });
    expect((await updateBlogPost(database.db, b.id, post('renamed-post'))).slug).toBe('renamed-post');
    await expect(updateBlogPost(database.db, 999_999, post('nowhere'))).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await deleteBlogPost(database.db, a.id)).slug).toBe('first-post');
    await expect(deleteBlogPost(database.db, a.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await listBlogPosts(database.db)).map((p) => p.slug)).toContain('renamed-post');
  });

  it('FAQ items and local services: create, update, delete once', async () => {
    const q = await createFaqItem(database.db, { question: text('Q'), answer: text('A'), orderIndex: 1, published: true });
    expect((await updateFaqItem(database.db, q.id, { question: text('Q2'), answer: text('A'), orderIndex: 1, published: false })).published).toBe(false);
    expect((await listFaqItems(database.db)).some((f) => f.id === q.id)).toBe(true);
    await deleteFaqItem(database.db, q.id);
    await expect(deleteFaqItem(database.db, q.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(updateFaqItem(database.db, q.id, { question: text('Q'), answer: text('A'), orderIndex: 0, published: true })).rejects.toMatchObject({ code: 'NOT_FOUND' });

    const input = { name: text('S'), description: text(''), details: text(''), benefits: text(''), priceQepik: 500, category: 'standard' as const, platform: null, icon: null, active: true, orderIndex: 0 };
    const s = await createLocalService(database.db, input);
    expect((await updateLocalService(database.db, s.id, { ...input, priceQepik: 700 })).priceQepik).toBe(700);
    expect((await listLocalServices(database.db)).some((r) => r.id === s.id)).toBe(true);
    await deleteLocalService(database.db, s.id);
    await expect(updateLocalService(database.db, s.id, input)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('the admin dashboard’s service count', () => {
  it('counts the services shown on the site, not the hidden ones', async () => {
    const before = await countActiveLocalServices(database.db);
    const input = { name: text('C'), description: text(''), details: text(''), benefits: text(''), priceQepik: null, category: 'standard' as const, platform: null, icon: null, active: true, orderIndex: 0 };
    await createLocalService(database.db, input);
    const hidden = await createLocalService(database.db, { ...input, active: false });
    expect(await countActiveLocalServices(database.db)).toBe(before + 1);
    await updateLocalService(database.db, hidden.id, input);
    expect(await countActiveLocalServices(database.db)).toBe(before + 2);
  });
});
