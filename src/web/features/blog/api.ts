/** Blog and FAQ as the public API serves them (GET /api/content/*). */
export type { FaqEntry, Post, PostSummary } from '../../../core/contracts/content';

export { contentGet, loaderApi } from '../../lib/loaderFetch';

/** A post body as paragraphs: split on blank lines, single line breaks kept inside a paragraph. */
export function paragraphs(body: string): string[][] {
  return body
    .replace(/\r\n?/g, '\n')
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => p.split('\n'));
}
