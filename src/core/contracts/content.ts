import { z } from 'zod';

/** A published blog post in the list (`GET /api/content/blog?lang=`), in one language. */
export const postSummarySchema = z.object({
  slug: z.string(),
  title: z.string(),
  excerpt: z.string(),
  /** YYYY-MM-DD */
  publishedOn: z.string(),
  updatedAt: z.string(),
});
export type PostSummary = z.infer<typeof postSummarySchema>;

/** One published post in full (`GET /api/content/blog/:slug?lang=`). */
export const postSchema = postSummarySchema.omit({ updatedAt: true }).extend({ body: z.string() });
export type Post = z.infer<typeof postSchema>;

/** One published question and answer (`GET /api/content/faq?lang=`). */
export const faqEntrySchema = z.object({ id: z.number().int(), question: z.string(), answer: z.string() });
export type FaqEntry = z.infer<typeof faqEntrySchema>;

/**
 * One of the agency's own active services in one language (`GET /api/content/services?lang=`,
 * `GET /api/content/services/:id?lang=`). Price in AZN qəpik, null when on request; `icon` is a
 * lucide icon name; `benefits` one a line in the store, a list here.
 */
export const localServiceSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  details: z.string(),
  benefits: z.array(z.string()),
  category: z.enum(['standard', 'social_media']),
  priceQepik: z.number().int().nullable(),
  platform: z.string().nullable(),
  icon: z.string().nullable(),
  orderIndex: z.number().int(),
  updatedAt: z.string(),
});
export type LocalService = z.infer<typeof localServiceSchema>;
