import type { Hono } from 'hono';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../core/i18n';
import {
  ADD_FORMS,
  BALANCE_FORM,
  CANCEL_FORM,
  formSchema,
  readForm,
  REFILL_FORMS,
  REFILL_STATUS_FORMS,
  SERVICE_FIGURE_FIELDS,
  SERVICES_FORM,
  STATUS_FORMS,
  V2_COMMON_PARAMS,
  V2_FORMS,
  type V2Param,
} from '../../core/resellerApiActions';
import { renderedPage, sourceRenderer } from '../testing/web';
import { useTestShop } from '../testing/shop';

let app: Hono;

useTestShop((shop) => ({ app } = shop), { web: sourceRenderer() });

/** The page as a document. */
const page = (lang: string): Promise<Document> => renderedPage(app, `/${lang}/api`);

/** The rows of a form's parameter table: name and whether required. */
const rowsOf = (doc: Document, id: string) =>
  [...doc.querySelectorAll(`section[id="${id}"] tr[data-param]`)].map((tr) => [tr.getAttribute('data-param'), tr.getAttribute('data-required')]);

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

  it('shows every form the handler reads calls with, each parameter the handler’s schema takes, as required as it is', async () => {
    // The forms the handler reads with are the forms the page lists.
    const read = [SERVICES_FORM, ...Object.values(ADD_FORMS), ...Object.values(STATUS_FORMS), ...Object.values(REFILL_FORMS), ...Object.values(REFILL_STATUS_FORMS), CANCEL_FORM, BALANCE_FORM];
    expect(new Set(read)).toEqual(new Set(V2_FORMS));
    for (const lang of LANGUAGES) {
      const doc = await page(lang);
      for (const form of V2_FORMS) {
        const section = doc.querySelector(`section[id="${form.id}"]`);
        expect(section?.getAttribute('data-action'), `${lang} ${form.id}`).toBe(form.action);
        const shape = formSchema(form).shape as Record<string, z.ZodType>;
        const expected = [
          ...V2_COMMON_PARAMS.map((p) => [p.name, 'yes']),
          ...Object.entries(shape).map(([name, schema]) => [name, schema.safeParse(undefined).success ? 'no' : 'yes']),
        ];
        expect(rowsOf(doc, form.id), `${lang} ${form.id}`).toEqual(expected);
        // The example request sends every required parameter.
        const request = section!.querySelector('pre')!.textContent!;
        for (const [name, required] of expected) if (required === 'yes') expect(request, `${lang} ${form.id} ${name}`).toContain(`${name}=`);
      }
    }
  });

  it('lists the extra fields of the services answer, from the definitions the handler answers with', async () => {
    for (const lang of LANGUAGES) {
      const doc = await page(lang);
      const shown = [...doc.querySelectorAll(`section[id="${SERVICES_FORM.id}"] [data-answer-field]`)].map((e) => e.getAttribute('data-answer-field'));
      expect(shown, lang).toEqual(Object.values(SERVICE_FIGURE_FIELDS).map((f) => f.name));
      expect(doc.querySelector(`section[id="${SERVICES_FORM.id}"] [data-answer-field="average_time"]`)!.textContent, lang).toContain(SERVICE_FIGURE_FIELDS.average.description[lang]);
    }
  });

  it('says drip-feed is offered, with runs and interval, and states the precision of money', async () => {
    for (const lang of LANGUAGES) {
      const doc = await page(lang);
      const text = doc.querySelector('main')!.textContent!;
      for (const stale of ['not offered', 'hələ təklif olunmur', 'henüz sunulmuyor']) expect(text, lang).not.toContain(stale);
      expect(rowsOf(doc, ADD_FORMS.Default.id)).toEqual(expect.arrayContaining([['runs', 'no'], ['interval', 'no']]));
      expect(doc.querySelector('[data-testid="api-money"]')!.textContent, lang).toMatch(/\b5\b/);
    }
  });

  it('shows a parameter added to a definition, which the handler then reads', async () => {
    const params = ADD_FORMS.Default.params as unknown as V2Param[];
    const probe: V2Param = { name: 'probe_field', required: true, format: 'text', example: 'probe-value', description: { az: 'a', tr: 't', en: 'e' }, schema: z.string() };
    params.push(probe);
    try {
      const doc = await page('en');
      expect(rowsOf(doc, ADD_FORMS.Default.id).at(-1)).toEqual(['probe_field', 'yes']);
      expect(doc.querySelector(`section[id="${ADD_FORMS.Default.id}"] pre`)!.textContent).toContain('probe_field=probe-value');
      expect(readForm(ADD_FORMS.Default, { service: '1', link: 'https://x.io', quantity: '10' })).toHaveProperty('error');
    } finally {
      params.pop();
    }
    expect(rowsOf(await page('en'), ADD_FORMS.Default.id).map(([name]) => name)).not.toContain('probe_field');
  });
});
