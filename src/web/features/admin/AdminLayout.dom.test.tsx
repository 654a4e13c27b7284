// @vitest-environment happy-dom
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import type { Language } from '../../../core/i18n';
import { I18n, I18nProvider } from '../../i18n';
import type { Me } from '../auth/api';
import AdminLayout from './AdminLayout';
import { NAV } from './nav';

/*
 * The admin menu in a document: the sections a role may use, in the menu's order (money first:
 * the dashboard, analytics, orders, then payments), each named in the reader's language.
 */

const localesDir = join(import.meta.dirname, '../../i18n/locales');
const bundles = (lang: Language) =>
  Object.fromEntries(readdirSync(join(localesDir, lang)).map((f) => [f.replace(/\.json$/, ''), JSON.parse(readFileSync(join(localesDir, lang, f), 'utf8')) as Record<string, unknown>]));

const me = (roles: string[]) => ({ id: 'u1', email: 'team@artim.az', fullName: 'Team', roles, twoFactorEnabled: true, twoFactorRequired: false }) as unknown as Me;

afterEach(cleanup);

async function menu(lang: Language, roles: string[], at = '') {
  const router = createMemoryRouter(
    [
      {
        path: '/:lang/admin',
        element: <AdminLayout />,
        loader: () => ({ me: me(roles), lang }),
        children: [{ index: true, element: <p>home</p> }, ...NAV.filter((item) => item.path).map((item) => ({ path: item.path.slice(1), element: <p>{`${item.key} page`}</p> }))],
      },
    ],
    { initialEntries: [`/${lang}/admin${at}`] },
  );
  render(
    <QueryClientProvider client={new QueryClient()}>
      <I18nProvider i18n={new I18n(lang, { [lang]: bundles(lang) })}>
        <RouterProvider router={router} />
      </I18nProvider>
    </QueryClientProvider>,
  );
  const texts = bundles(lang).admin as { nav: Record<string, string>; layout: { navigation: string } };
  const nav = await screen.findByRole('navigation', { name: texts.layout.navigation });
  return { links: within(nav).getAllByRole('link'), names: texts.nav };
}

describe('the admin menu', () => {
  it('lists Payments right after Orders, for an admin, in each language', async () => {
    for (const lang of ['az', 'tr', 'en'] as const) {
      const { links, names } = await menu(lang, ['admin', 'user']);
      expect(links.map((a) => a.textContent), lang).toEqual(NAV.map((item) => names[item.key]));
      expect(links.slice(0, 4).map((a) => a.getAttribute('href')), lang).toEqual([`/${lang}/admin`, `/${lang}/admin/analytics`, `/${lang}/admin/orders`, `/${lang}/admin/payments`]);
      cleanup();
    }
  });

  it('shows a moderator only the sections the role may use, in the same order', async () => {
    const { links } = await menu('en', ['moderator', 'user']);
    expect(links.map((a) => a.textContent)).toEqual(['Orders', 'Support', 'Contact messages', 'Consultations', 'Users']);
  });

  it('tells a role that opens a section it may not use that it has no access, in each language, without the page or a retry', async () => {
    for (const lang of ['az', 'tr', 'en'] as const) {
      const texts = bundles(lang).admin as { noAccess: { title: string; home: string }; nav: Record<string, string>; common: { retry: string } };
      await menu(lang, ['moderator', 'user'], '/settings');
      const alert = await screen.findByRole('alert');
      expect(alert.textContent, lang).toContain(texts.noAccess.title);
      expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(texts.nav.settings);
      expect(screen.queryByText('settings page')).toBeNull();
      expect(screen.queryByRole('button', { name: texts.common.retry })).toBeNull();
      expect(within(alert).getByRole('link', { name: texts.noAccess.home }).getAttribute('href')).toBe(`/${lang}/admin`);
      cleanup();
    }
    // Their own sections open as usual, and an admin opens every one.
    await menu('en', ['moderator', 'user'], '/users');
    await screen.findByText('users page');
    cleanup();
    for (const item of NAV.filter((n) => n.path)) {
      await menu('en', ['admin', 'user'], item.path);
      await screen.findByText(`${item.key} page`);
      cleanup();
    }
  });
});
