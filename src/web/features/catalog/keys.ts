/**
 * The public catalogue's query keys (GET /api/catalog/…): the app's query cache keeps its answers
 * by them, and a page of islands by the same words joined (app/page.ts `answerKey`).
 */
export const catalogKeys = {
  all: ['catalog'] as const,
  services: (lang: string) => ['catalog', 'services', lang] as const,
  service: (id: string, lang: string) => ['catalog', 'service', id, lang] as const,
  platforms: () => ['catalog', 'platforms'] as const,
};
