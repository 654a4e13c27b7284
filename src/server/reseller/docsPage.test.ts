import type { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { sourceRenderer } from '../testing/web';
import { useTestShop } from '../testing/shop';

let app: Hono;

useTestShop((shop) => ({ app } = shop), { web: sourceRenderer() });

describe('the API page /{lang}/api', () => {
  it('names the endpoint with https on public hosts and as asked on loopback', async () => {
    const { endpointOf } = await import('../../web/features/apiDocs/ApiDocsPage');
    expect(endpointOf('http://artim.az/en/api')).toBe('https://artim.az/api/v2');
    expect(endpointOf('http://localhost:3000/en/api')).toBe('http://localhost:3000/api/v2');
  });

  it('documents every action with curl and PHP examples, signed out, in az, tr and en', async () => {
    const titles = { az: 'Reseller API', tr: 'Bayi API&#x27;si', en: 'Reseller API' } as const;
    for (const lang of ['az', 'tr', 'en'] as const) {
      const res = await app.request(`/${lang}/api`);
      expect(res.status, lang).toBe(200);
      const html = await res.text();
      const shown = html.replace(/<script[\s\S]*?<\/script>/g, '');
      expect(shown).toContain(`<html lang="${lang}"`);
      expect(shown, lang).toMatch(new RegExp(`<h1[^>]*>${titles[lang].replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}</h1>`));
      for (const action of ['services', 'add', 'status', 'refill', 'refill_status', 'cancel', 'balance']) expect(shown, `${lang} ${action}`).toContain(`action=${action}`);
      expect(shown).toContain('curl -s -X POST http://localhost/api/v2');
      expect(shown).toContain('http_build_query');
      expect(shown).toContain('Not enough funds on balance');
      expect(shown).not.toContain('{{');
    }
  });
});
