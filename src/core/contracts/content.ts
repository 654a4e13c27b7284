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
