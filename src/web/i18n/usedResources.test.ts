import { describe, expect, it } from 'vitest';
import { createI18n, loadNamespaces, usedResources } from '.';

/*
 * The text a page's boot data carries is written the same whatever order its bundles finished
 * loading in: two renders of one page, one of them the first to load a language's bundles, are
 * byte for byte the same (a customer's pages share a shell only when they are).
 */
describe('usedResources', () => {
  it('writes the namespaces by name, whatever order they were loaded in', async () => {
    const first = createI18n('az');
    await loadNamespaces(first, 'az', ['order-notes']);
    await loadNamespaces(first, 'az', ['dashboard', 'common']);
    const second = createI18n('az');
    await loadNamespaces(second, 'az', ['common', 'dashboard', 'order-notes']);
    expect(JSON.stringify(usedResources(first, 'az'))).toBe(JSON.stringify(usedResources(second, 'az')));
    expect(Object.keys(usedResources(first, 'az').az!)).toEqual(['common', 'dashboard', 'order-notes']);
    expect(Object.keys(usedResources(first, 'az', ['order-notes', 'common']).az!)).toEqual(['common', 'order-notes']);
  });
});
