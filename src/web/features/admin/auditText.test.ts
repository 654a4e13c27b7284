import { describe, expect, it } from 'vitest';
import az from '../../i18n/locales/az/admin.json';
import en from '../../i18n/locales/en/admin.json';
import { I18n } from '../../i18n';
import type { AuditEntry } from './api';
import { amountOf, auditSentence, humanize, targetLink, targetName } from './auditText';

/* The audit log's wording rules, without a document: AdminAuditPage.dom.test.tsx shows them on the page. */

const t = (lang: 'en' | 'az') => new I18n(lang, { en: { admin: en }, az: { admin: az } }).getFixedT(lang, 'admin');
const entry = (action: string, details: Record<string, unknown>, target: { type?: string; id?: string | null; label?: string | null } = {}): Pick<AuditEntry, 'action' | 'details' | 'targetType' | 'targetId' | 'target'> => ({
  action,
  details: details as AuditEntry['details'],
  targetType: target.type ?? 'user',
  targetId: target.id === undefined ? 'u-1' : target.id,
  target: { label: target.label === undefined ? 'a@b.az' : target.label },
});

describe('audit wording', () => {
  it('reads amounts by their key: micro-dollars, qəpik, and cents of older entries, as numbers or digit strings', () => {
    expect(amountOf('amountMicros', 5_000_000)).toEqual({ amount: 5_000_000, currency: 'USD' });
    expect(amountOf('amountQepik', 1717)).toEqual({ amount: 1717, currency: 'AZN' });
    expect(amountOf('amountCents', '-250')).toEqual({ amount: -2_500_000, currency: 'USD' });
    expect(amountOf('amountMicros', 1.5)).toBeNull();
    expect(amountOf('amountMicros', '5 USD')).toBeNull();
    expect(amountOf('amount', 5)).toBeNull();
  });

  it('words a chargeback with the customer, the amount taken back and the reason', () => {
    const reversal = entry('payment.reversal', { amountMicros: 12_340_000, reason: 'bank reversed it' }, { type: 'payment', id: 'p-1', label: 'a@b.az' });
    expect(auditSentence(t('en'), 'en', reversal)).toBe('Top-up of a@b.az reversed by the bank: $12.34 taken back — bank reversed it');
    expect(auditSentence(t('az'), 'az', reversal)).toBe('a@b.az balans artırması bank tərəfindən geri alındı: 12,34\u00a0$ çıxıldı — bank reversed it');
  });

  it('words a bank transfer’s approval and rejection with the customer', () => {
    const approved = entry('payment.bank_approve', { amountMicros: 20_000_000 }, { type: 'payment', id: 'p-1', label: 'a@b.az' });
    expect(auditSentence(t('en'), 'en', approved)).toBe('Bank transfer of a@b.az approved: $20.00 credited');
    const rejected = entry('payment.bank_reject', { reason: 'no such transfer' }, { type: 'payment', id: 'p-1', label: 'a@b.az' });
    expect(auditSentence(t('en'), 'en', rejected)).toBe('Bank transfer of a@b.az rejected — no such transfer');
  });

  it('words the removal of a lost second factor with the account and the team’s reason', () => {
    const reset = entry('two_factor.reset', { reason: 'lost phone and codes' }, { label: 'nermin@example.com' });
    expect(auditSentence(t('en'), 'en', reset)).toBe('Second factor of nermin@example.com removed, signed out everywhere: lost phone and codes');
    expect(auditSentence(t('az'), 'az', reset)).toBe('nermin@example.com hesabının ikinci mərhələsi silindi, bütün cihazlarda çıxış edildi: lost phone and codes');
    expect(targetLink(reset)).toBe('/users?q=nermin%40example.com');
  });

  it('words the bonus rules’ and coupons’ additions and changes, shares as percents and amounts as money', () => {
    const added = entry('bonus_rule.create', { name: 'Card week', method: 'epoint', minMicros: 20_000_000, percentBp: 1250, capMicros: null, startsAt: null, endsAt: null, enabled: true }, { type: 'bonus_rule', id: '3', label: 'Card week' });
    expect(auditSentence(t('en'), 'en', added)).toBe('Deposit bonus rule “Card week” added: Name: Card week · Method: epoint · From: $20.00 · Percent: 12.5 % · Cap: — · Starts: — · Ends: — · Enabled: yes');
    const changed = entry('bonus_rule.update', { percentBp: { from: 1000, to: 1500 }, enabled: { from: true, to: false } }, { type: 'bonus_rule', id: '3', label: 'Card week' });
    expect(auditSentence(t('en'), 'en', changed)).toBe('Deposit bonus rule “Card week” changed: Percent: 10 % → 15 %; Enabled: yes → no');
    expect(auditSentence(t('az'), 'az', changed)).toBe('“Card week” artırma bonusu qaydası dəyişdirildi: Faiz: 10 % → 15 %; Aktiv: bəli → xeyr');
    const coupon = entry('coupon.update', { amountMicros: { from: 1_000_000, to: 2_000_000 }, totalUses: { from: 100, to: null } }, { type: 'coupon', id: '7', label: 'WELCOME5' });
    expect(auditSentence(t('en'), 'en', coupon)).toBe('Coupon WELCOME5 changed: Amount: $1.00 → $2.00; In total: 100 → —');
    expect(auditSentence(t('en'), 'en', entry('coupon.create', { code: 'WELCOME5', perCustomer: 1 }, { type: 'coupon', id: '7', label: 'WELCOME5' }))).toBe('Coupon WELCOME5 added: Code: WELCOME5 · Per customer: 1');
  });

  it('words an action without a sentence by its label and its details, keys named in the language or made readable', () => {
    expect(auditSentence(t('en'), 'en', entry('widget.create', { name: 'Resellers', discountPercent: 10, chargeQepik: 1717, enabled: true }, { type: 'group', id: '7', label: null }))).toBe(
      'Widget create — Name: Resellers · Discount percent: 10 · Charge: AZN\u00a017.17 · Enabled: yes',
    );
    expect(auditSentence(t('az'), 'az', entry('widget-box.reset', { reason: 'lost phone', count: 2 }))).toBe('Widget box reset — Səbəb: lost phone · Count: 2');
    expect(humanize('callsPerSecond')).toBe('Calls per second');
  });

  it('falls back to the label and details when an entry lacks a value its sentence names', () => {
    expect(auditSentence(t('en'), 'en', entry('balance.adjust', { reason: 'goodwill' }))).toBe('Balance adjusted — Reason: goodwill');
    expect(auditSentence(t('en'), 'en', entry('provider.update', { name: 'Panel', changes: { enabled: { from: true, to: false }, key: 'replaced' } }, { type: 'provider', id: 'p', label: 'Panel' }))).toBe(
      'Provider Panel changed: Enabled: yes → no, Key: replaced',
    );
  });

  it('names a target that is gone by the name it had, else a short id; links only to what still exists', () => {
    const deleted = entry('service.delete', { name: 'Loqo' }, { type: 'service', id: '12', label: null });
    expect(targetName(t('en'), deleted)).toBe('Loqo');
    expect(targetLink(deleted)).toBeNull();
    expect(targetName(t('en'), entry('faq.delete', {}, { type: 'faq', id: '3f1c9a2e-7b4d-4c1e-9a6f-0e2d5b8c7a11', label: null }))).toBe('3f1c9a2e…');
    expect(targetLink(entry('payment.reversal', {}, { type: 'payment', id: 'p1', label: 'a@b.az' }))).toBe('/payments?q=a%40b.az');
    expect(targetLink(entry('support.ticket.reply', {}, { type: 'support_ticket', id: 't1', label: 'Help' }))).toBe('/support?ticket=t1');
  });
});
