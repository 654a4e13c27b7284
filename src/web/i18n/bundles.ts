/** Every text bundle, `./locales/{lang}/{namespace}.json`, each its own chunk, loaded when asked for (./index.ts `loadNamespaces`). */
export const bundles = import.meta.glob<{ default: Record<string, unknown> }>('./locales/*/*.json');
