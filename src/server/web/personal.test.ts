import type { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { signUpUser } from '../auth/testing';
import { sourceRenderer } from '../testing/web';
import { useTestShop } from '../testing/shop';

let app: Hono;

useTestShop((shop) => ({ app } = shop), { web: sourceRenderer() });

const boot = (html: string) => JSON.parse(/<script type="application\/json" id="artim-boot">([\s\S]*?)<\/script>/.exec(html)![1]!) as { me?: unknown };

describe('pages for signed-in visitors', () => {
  it('render the header signed in from the server, and are never stored by shared caches', async () => {
    const user = await signUpUser(app, { name: 'Aysel Məmmədova' });
    for (const path of ['/az', '/en/services', '/tr/contact', '/en/order']) {
      const res = await app.request(path, { headers: { cookie: user.cookie } });
      expect(res.status, path).toBe(200);
      expect(res.headers.get('cache-control'), path).toBe('private, no-store');
      const html = await res.text();
      expect(boot(html).me, path).toMatchObject({ id: user.id, fullName: 'Aysel Məmmədova' });
      const header = /<header[\s\S]*?<\/header>/.exec(html)![0];
      expect(header, path).toMatch(/\/dashboard/);
      expect(header, path).not.toMatch(/Daxil ol|Sign in|Giriş yap/);
    }
  });

  it('render the same anonymous page for everyone without a session, and for a cookie whose session is gone', async () => {
    // A visitor who has seen an English page before (the first one also sets the language: web/language.test.ts).
    const anonymous = await app.request('/en', { headers: { cookie: 'lang=en' } });
    expect(anonymous.headers.get('cache-control')).toBe('no-cache');
    expect(anonymous.headers.get('vary')).toContain('Cookie');
    const page = await anonymous.text();
    expect(boot(page).me).toBeNull();
    expect(/<header[\s\S]*?<\/header>/.exec(page)![0]).toMatch(/Sign in/);
    const stale = await app.request('/en', { headers: { cookie: 'artim.session_token=no-such-session.signature; lang=en' } });
    expect(stale.headers.get('cache-control')).toBe('no-cache');
    expect(boot(await stale.text()).me).toBeNull();
  });
});
