import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { I18n, I18nProvider } from '../../i18n';
import admin from '../../i18n/locales/en/admin.json';
import auth from '../../i18n/locales/en/auth.json';
import common from '../../i18n/locales/en/common.json';
import type { Me } from '../auth/api';
import { StaffRoles } from './access';
import { StaffHome } from './AdminDashboardPage';
import { AdminGate } from './AdminGate';
import { NAV, navFor } from './nav';

const html = (node: ReactNode, roles: string[] = []) =>
  renderToStaticMarkup(
    <I18nProvider i18n={new I18n('en', { en: { admin, auth, common } })}>
      <MemoryRouter initialEntries={['/en/admin']}>
        <StaffRoles roles={roles}>{node}</StaffRoles>
      </MemoryRouter>
    </I18nProvider>,
  );
const me = (roles: string[], twoFactor: Partial<Pick<Me, 'twoFactorEnabled' | 'twoFactorRequired'>> = {}) =>
  ({ id: 'u1', email: 'team@artim.az', fullName: 'Team', roles, twoFactorEnabled: true, twoFactorRequired: false, ...twoFactor }) as unknown as Me;
/** The gate with a query client, as the app renders it (the second factor's parts read the signed-in state). */
const withQueries = (node: ReactNode) => <QueryClientProvider client={new QueryClient()}>{node}</QueryClientProvider>;

describe('the admin area by role', () => {
  it('shows a moderator only the support sections and read-only orders and users; an admin every section; a customer none', () => {
    expect(navFor(['moderator', 'user']).map((n) => n.key)).toEqual(['orders', 'support', 'contactMessages', 'consultations', 'users']);
    expect(navFor(['admin', 'user'])).toEqual(NAV);
    expect(navFor(['admin', 'user']).map((n) => n.key)).toContain('payments');
    expect(navFor(['user'])).toEqual([]);
  });

  it('opens /admin for a moderator and still refuses a customer', () => {
    expect(html(<AdminGate me={me(['moderator', 'user'])} lang="en"><p>inside</p></AdminGate>)).toBe('<p>inside</p>');
    const customer = html(<AdminGate me={me(['user'])} lang="en"><p>inside</p></AdminGate>);
    expect(customer).not.toContain('inside');
    expect(customer).toContain(auth.admin.forbiddenTitle);
  });

  it('gives a moderator a start page with their sections instead of the money figures', () => {
    const page = html(<StaffHome />, ['moderator', 'user']);
    expect(page).toContain(admin.staffHome.title);
    for (const path of ['/en/admin/support', '/en/admin/contact-messages', '/en/admin/consultations', '/en/admin/orders', '/en/admin/users']) expect(page).toContain(`href="${path}"`);
    for (const path of ['/en/admin/settings', '/en/admin/services', '/en/admin/audit', '/en/admin/providers']) expect(page).not.toContain(`href="${path}"`);
  });

  it('in production keeps a team member without a second factor out, on a page that sets it up; elsewhere it opens with an offer', () => {
    const required = html(withQueries(<AdminGate me={me(['admin', 'user'], { twoFactorEnabled: false, twoFactorRequired: true })} lang="en"><p>inside</p></AdminGate>));
    expect(required).not.toContain('inside');
    expect(required).toContain(auth.twoFactor.gateTitle);
    expect(required).toContain(auth.twoFactor.enable);

    const offered = html(withQueries(<AdminGate me={me(['admin', 'user'], { twoFactorEnabled: false, twoFactorRequired: false })} lang="en"><p>inside</p></AdminGate>));
    expect(offered).toContain('<p>inside</p>');
    expect(offered).toContain(auth.twoFactor.offeredNotice);

    const customer = html(withQueries(<AdminGate me={me(['user'], { twoFactorEnabled: false, twoFactorRequired: false })} lang="en"><p>inside</p></AdminGate>));
    expect(customer).not.toContain(auth.twoFactor.offeredNotice);
    expect(customer).toContain(auth.admin.forbiddenTitle);
  });
});
