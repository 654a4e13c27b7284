import type { Me } from '../../core/contracts/account';
import { LANGUAGES, isLanguage, type Language } from '../../core/i18n';
import type { SiteSettings } from './site';

/** Data the server embeds in the HTML (as a non-executable JSON script) for hydration. */
export interface BootData {
  lang: Language;
  resources: Record<string, unknown>;
  /** Who the page was rendered for: null for a visitor without a session; absent when not known. */
  me?: Me | null;
  hydration: { loaderData: Record<string, unknown>; actionData: Record<string, unknown> | null; errors: Record<string, unknown> | null };
}
/**
 * The boot data of a public page whose islands alone hydrate (entry-islands.tsx): what the
 * islands were rendered with, and no router state. Their text is in `resources` when an island
 * wakes by itself; on a page whose islands all wait to be touched or asked, `text` names the
 * bundles the first to wake loads (islands/text.ts, docs/decisions/0030).
 */
export interface IslandsBootData {
  lang: Language;
  resources?: Record<string, unknown>;
  text?: string[];
  me: Me | null;
  site: SiteSettings;
  /** The API's answers the page came with, by their key (app/page.ts `PageAnswer`). */
  answers?: Record<string, unknown>;
  /** The ETags of those answers that have one, by the same key. */
  answerTags?: Record<string, string>;
}
export const BOOT_DATA_ID = 'artim-boot';

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** JSON safe inside a <script> element: no `</script>`, no HTML comment openers. */
export const scriptJson = (value: unknown) =>
  JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');

/** Title, description, canonical link and hreflang alternates for a page. */
export function headTags(opts: { title: string; description?: string; publicUrl: string; pathname: string; search?: string }): string {
  const tags = [`<title>${escapeHtml(opts.title)}</title>`];
  if (opts.description) tags.push(`<meta name="description" content="${escapeHtml(opts.description)}" />`);
  const base = opts.publicUrl.replace(/\/$/, '');
  tags.push(`<link rel="canonical" href="${escapeHtml(base + opts.pathname)}" />`);
  const segments = opts.pathname.split('/');
  if (isLanguage(segments[1])) {
    for (const lang of LANGUAGES) {
      segments[1] = lang;
      tags.push(`<link rel="alternate" hreflang="${lang}" href="${escapeHtml(base + segments.join('/'))}" />`);
    }
    segments[1] = 'en';
    tags.push(`<link rel="alternate" hreflang="x-default" href="${escapeHtml(base + segments.join('/'))}" />`);
  }
  return tags.join('\n    ');
}
