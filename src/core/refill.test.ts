import { describe, expect, it } from 'vitest';
import {
  DEFAULT_REFILL_DAYS,
  LIFETIME_REFILL_DAYS,
  providerRefillRefusal,
  REFILL_COOLDOWN_MS,
  REFILL_REFUSAL_TEXT,
  REFILL_REFUSALS,
  refillDaysOf,
  refillRefusal,
  refillUntil,
  type RefillCase,
} from './refill';

describe('refill periods', () => {
  it('reads the period from names and descriptions as providers write them', () => {
    expect(refillDaysOf('Instagram Followers [HQ, 30d refill]')).toBe(30);
    expect(refillDaysOf('Followers [Real, 365D Refill]')).toBe(365);
    expect(refillDaysOf('Likes', 'Start: 0-1h\nRefill: 60d\nSpeed: fast')).toBe(60);
    expect(refillDaysOf('Views | Refill 90 days')).toBe(90);
    expect(refillDaysOf('Followers [Lifetime refill]')).toBe(LIFETIME_REFILL_DAYS);
    expect(refillDaysOf('Followers [No Refill]', 'Refill: none')).toBeNull();
    expect(refillDaysOf(null, undefined, '')).toBeNull();
  });

  it('counts the period from completion (from placement for orders completed before it was recorded), 30 days when the provider names none', () => {
    const at = new Date('2026-01-01T00:00:00Z');
    const done = new Date('2026-01-05T00:00:00Z');
    expect(refillUntil({ createdAt: at, completedAt: done }, 7).toISOString()).toBe('2026-01-12T00:00:00.000Z');
    expect(refillUntil({ createdAt: at, completedAt: null }, 7).toISOString()).toBe('2026-01-08T00:00:00.000Z');
    expect(refillUntil({ createdAt: at, completedAt: null }, null).getTime() - at.getTime()).toBe(DEFAULT_REFILL_DAYS * 86_400_000);
  });
});

describe('the refill rule', () => {
  const placed = new Date('2026-03-01T00:00:00Z');
  const completed = new Date('2026-03-20T00:00:00Z');
  const base: RefillCase = {
    offered: true,
    refillDays: 30,
    order: { status: 'completed', providerOrderId: 'p1', createdAt: placed, completedAt: completed },
    laterOrder: false,
  };
  const at = (iso: string) => new Date(iso);

  it('counts the window from completion, not placement', () => {
    // 35 days after placement, 16 after completion: still inside a 30-day window.
    expect(refillRefusal(base, at('2026-04-05T00:00:00Z'))).toBeNull();
    expect(refillRefusal(base, at('2026-04-19T00:00:00Z'))).toBeNull();
    expect(refillRefusal(base, at('2026-04-19T00:00:01Z'))).toBe('period_ended');
    // Completed before completions were recorded: counted from placement, as before.
    expect(refillRefusal({ ...base, order: { ...base.order, completedAt: null } }, at('2026-04-05T00:00:00Z'))).toBe('period_ended');
  });

  it('keeps a cooldown after the last refill the provider took', () => {
    const lastTaken = { createdAt: at('2026-03-25T10:00:00Z') };
    const c = { ...base, latest: { status: 'completed' as const }, lastTaken };
    expect(refillRefusal(c, at('2026-03-26T09:59:59Z'))).toBe('cooldown');
    expect(refillRefusal(c, new Date(lastTaken.createdAt.getTime() + REFILL_COOLDOWN_MS))).toBeNull();
    // A refill the provider refused starts no cooldown.
    expect(refillRefusal({ ...base, latest: { status: 'rejected' } }, at('2026-03-25T10:00:01Z'))).toBeNull();
    // One still open is refused as open, whatever its age.
    expect(refillRefusal({ ...c, latest: { status: 'pending' } }, at('2026-04-10T00:00:00Z'))).toBe('open');
  });

  it('refuses once a later order targets the same link', () => {
    expect(refillRefusal({ ...base, laterOrder: true }, at('2026-03-21T00:00:00Z'))).toBe('later_order');
  });

  it('refuses services without refills and orders not completed', () => {
    expect(refillRefusal({ ...base, offered: false }, at('2026-03-21T00:00:00Z'))).toBe('not_offered');
    expect(refillRefusal({ ...base, order: { ...base.order, status: 'partial' } }, at('2026-03-21T00:00:00Z'))).toBe('not_completed');
    expect(refillRefusal({ ...base, order: { ...base.order, providerOrderId: null } }, at('2026-03-21T00:00:00Z'))).toBe('not_completed');
  });

  it('words every refusal for the reseller API', () => {
    for (const r of REFILL_REFUSALS) expect(REFILL_REFUSAL_TEXT[r]).toMatch(/\w/);
    expect(REFILL_REFUSAL_TEXT.cooldown).toContain('24 hours');
  });
});

describe('refill statuses', () => {
  it('reads provider wordings case-insensitively and spells them back as panels do', async () => {
    const { refillStatusFromText, REFILL_STATUS_TEXT } = await import('./refill');
    expect(refillStatusFromText('In progress')).toBe('in_progress');
    expect(refillStatusFromText('in_progress')).toBe('in_progress');
    expect(refillStatusFromText('COMPLETED')).toBe('completed');
    expect(refillStatusFromText('Rejected')).toBe('rejected');
    expect(refillStatusFromText('Pending')).toBe('pending');
    expect(refillStatusFromText('something new')).toBe('pending');
    expect(REFILL_STATUS_TEXT.in_progress).toBe('In progress');
  });
});

describe('a provider’s refusal of a refill', () => {
  it('is read as the shop’s code, whatever the panel’s wording, so pages word it in the reader’s language', () => {
    for (const text of ['Refill is not available for this order', 'Refill is not available for this service', 'Refill disabled', 'This service does not support refill', 'Order is not eligible for refill', 'No refill for this service'])
      expect(providerRefillRefusal(text), text).toBe('not_offered');
    for (const text of ['Refill request already exists', 'A refill is already in progress', 'Refill already requested']) expect(providerRefillRefusal(text), text).toBe('open');
    for (const text of ['Order is not completed', 'Refill is available only for completed orders']) expect(providerRefillRefusal(text), text).toBe('not_completed');
    for (const text of ['Refill period expired', 'The refill period has ended']) expect(providerRefillRefusal(text), text).toBe('period_ended');
  });

  it('keeps words it does not know as the provider’s own', () => {
    for (const text of ['Incorrect order ID', 'Something went wrong']) expect(providerRefillRefusal(text), text).toBe('provider');
  });
});
