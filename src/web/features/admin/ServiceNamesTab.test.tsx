import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { I18n, I18nProvider } from '../../i18n';
import admin from '../../i18n/locales/en/admin.json';
import common from '../../i18n/locales/en/common.json';
import { NamePreview, nameRulesOf } from './ServiceNamesTab';

const html = (node: ReactNode) => renderToStaticMarkup(<I18nProvider i18n={new I18n('en', { en: { admin, common } })}>{node}</I18nProvider>);
const text = (markup: string) => markup.replace(/<[^>]+>/g, '|').replace(/\|+/g, '|');

const services = [
  { id: '11', name: 'Instagram Followers [Real, 30 days refill] ⚡' },
  { id: '12', name: 'Instagram Followers [HQ, No Refill] 1K/day' },
  { id: '13', name: 'İnstaqram İzləyiciləri [HQ, No Refill] 1K/day' },
  { id: '14', name: 'Instagram Likes [HQ]' },
];

describe('the service names preview', () => {
  it('lists each affected service with its provider name and its az and tr names, and counts them', () => {
    const after = nameRulesOf([{ apiServiceName: 'instagram followers', az: 'İnstaqram İzləyiciləri', tr: 'Instagram Takipçileri', serviceId: null }]);
    const markup = html(<NamePreview services={services} before={[]} after={after} />);
    expect(markup.match(/data-testid="name-preview-row"/g)).toHaveLength(3);
    expect(text(markup)).toContain('|3 services renamed|');
    // The rule's words, the rest in the storefront's own wording (src/core/serviceGlossary.ts).
    expect(text(markup)).toContain('|Provider name: |#11 Instagram Followers [Real, 30 days refill] ⚡|Azerbaijani name: |az|İnstaqram İzləyiciləri [Real, 30 gün bərpa] ⚡|Turkish name: |tr|Instagram Takipçileri [Gerçek, 30 gün telafi] ⚡|');
    // Services 12 and 13 would read alike in Azerbaijani: they keep their provider names there, and say why.
    expect(text(markup)).toContain('|Provider name: |#12 Instagram Followers [HQ, No Refill] 1K/day|Azerbaijani name: |az|Instagram Followers [HQ, No Refill] 1K/day|Keeps its provider name: it would read like another service|Turkish name: |tr|Instagram Takipçileri [Yüksek kalite, Telafisiz] Günde 1K|');
    expect(text(markup)).toContain('|Provider name: |#13 İnstaqram İzləyiciləri [HQ, No Refill] 1K/day|Azerbaijani name: |az|İnstaqram İzləyiciləri [HQ, No Refill] 1K/day|Keeps its provider name: it would read like another service|');
    expect(markup).not.toContain('Instagram Likes');
  });

  it('renames one service only when the name is limited to it, and says when nothing changes', () => {
    const one = nameRulesOf([{ apiServiceName: 'Instagram Likes', az: 'Bəyənmələr', tr: 'Beğeniler', serviceId: '14' }]);
    expect(text(html(<NamePreview services={services} before={[]} after={one} />))).toContain('|1 service renamed|Provider name: |#14 Instagram Likes [HQ]|Azerbaijani name: |az|Bəyənmələr [Yüksək keyfiyyət]|Turkish name: |tr|Beğeniler [Yüksek kalite]|');
    expect(text(html(<NamePreview services={services} before={one} after={one} />))).toContain('No service name changes with this.');
    expect(text(html(<NamePreview services={[]} loading before={[]} after={one} />))).toContain('Loading the catalogue…');
  });
});
