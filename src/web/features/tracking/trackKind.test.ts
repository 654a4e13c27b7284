import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../../core/i18n';
import { ORDER_COUNTERS, ORDER_STATUSES, statusesOfCounter } from '../../../core/orderStatus';
import { statusLabelKey, statusTone } from '../dashboard/orderStatusView';
import { trackKind } from './trackKind';

const locale = (lang: string, ns: string) =>
  JSON.parse(readFileSync(join(import.meta.dirname, '../../i18n/locales', lang, `${ns}.json`), 'utf8')) as Record<string, unknown>;
const at = (obj: unknown, path: string) => path.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], obj);

describe('order status display', () => {
  it('colours tracked orders green when completed, amber when partly delivered, blue while under way, red otherwise', () => {
    expect(trackKind('completed')).toBe('success');
    expect(trackKind('partial')).toBe('partial');
    for (const s of ['pending', 'processing', 'in_progress', 'active', 'running', 'unknown'] as const) expect(trackKind(s), s).toBe('progress');
    for (const s of ['error', 'stopped', 'refunded', 'cancelled'] as const) expect(trackKind(s), s).toBe('failed');
  });

  it('feeds each status to one counter: partial its own, unknown with the active ones', () => {
    expect(statusesOfCounter('partial')).toEqual(['partial']);
    expect(statusesOfCounter('completed')).toEqual(['completed']);
    expect(statusesOfCounter('active')).toContain('unknown');
    const all = ORDER_COUNTERS.flatMap((c) => statusesOfCounter(c));
    expect([...all].sort()).toEqual([...ORDER_STATUSES].sort());
  });

  it('shows every active status as processing and unknown as verifying in the history', () => {
    for (const s of ['pending', 'processing', 'in_progress', 'active', 'running'] as const) {
      expect(statusLabelKey(s)).toBe('status.processing');
      expect(statusTone(s)).toBe('brand');
    }
    expect(statusLabelKey('unknown')).toBe('status.verifying');
    expect(statusTone('completed')).toBe('success');
    expect(statusTone('refunded')).toBe('danger');
  });

  it('has a name and description for every status in every language', () => {
    for (const lang of LANGUAGES) {
      const tracking = locale(lang, 'tracking');
      const dashboard = locale(lang, 'dashboard');
      for (const s of ORDER_STATUSES) {
        expect(at(tracking, `status.${s}.name`), `${lang} ${s}`).toEqual(expect.any(String));
        expect(at(tracking, `status.${s}.description`), `${lang} ${s}`).toEqual(expect.any(String));
        expect(at(dashboard, statusLabelKey(s)), `${lang} ${s}`).toEqual(expect.any(String));
      }
    }
  });
});
