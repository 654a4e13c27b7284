import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { ApiKeyList } from '../../../core/contracts/reseller';
import { I18n, I18nProvider } from '../../i18n';
import common from '../../i18n/locales/en/common.json';
import reseller from '../../i18n/locales/en/reseller.json';
import { ApiKeysTab } from './ApiKeysTab';
import { resellerKeys } from './resellerApi';

function render(list: ApiKeyList) {
  const client = new QueryClient();
  client.setQueryData(resellerKeys.keys(), list);
  return renderToStaticMarkup(
    <MemoryRouter initialEntries={['/en/dashboard']}>
      <QueryClientProvider client={client}>
        <I18nProvider i18n={new I18n('en', { en: { common, reseller } })}>
          <ApiKeysTab locale="en" />
        </I18nProvider>
      </QueryClientProvider>
    </MemoryRouter>,
  );
}

const key = { id: 'k1', name: 'My panel', prefix: '3fa9c1', createdAt: '2026-11-01T10:00:00Z', lastUsedAt: '2026-11-02T11:00:00Z', lastUsedIp: '203.0.113.7' };

describe('dashboard: API keys tab', () => {
  it('lists keys by name and prefix with their last use, and offers create, rotate and revoke', () => {
    const html = render({ keys: [key, { ...key, id: 'k2', name: '', prefix: '77aa01', lastUsedAt: null, lastUsedIp: null }], enabled: true });
    expect(html).toContain('My panel');
    expect(html).toContain('3fa9c1…');
    expect(html).toContain('203.0.113.7');
    expect(html).toContain('never used');
    expect(html).toContain('Unnamed key');
    expect(html).toContain('Create key');
    expect(html.match(/>Rotate</g)).toHaveLength(2);
    expect(html.match(/>Revoke</g)).toHaveLength(2);
    expect(html).toContain('href="/en/api"');
  });

  it('says when an admin turned API access off and offers no new key', () => {
    const html = render({ keys: [key], enabled: false });
    expect(html).toContain('API access is turned off');
    expect(html).not.toContain('Create key');
  });
});
