/**
 * The namespaces public pages' islands can load (bundles.islands.ts, whose list is this one): a
 * page whose islands all wait to be touched or asked, and use only these, sends its text as their
 * names (entry-server.tsx, ../islands/text.ts, docs/decisions/0030).
 */
export const ISLAND_TEXT: readonly string[] = ['common', 'auth', 'support', 'tracking', 'payments', 'reseller', 'order-tools'];
