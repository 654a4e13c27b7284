import { describe, expect, it } from 'vitest';
import { DEFAULT_REFILL_DAYS, LIFETIME_REFILL_DAYS, refillDaysOf, refillUntil } from './refill';

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

  it('counts the period from the order, 30 days when the provider names none', () => {
    const at = new Date('2026-01-01T00:00:00Z');
    expect(refillUntil(at, 7).toISOString()).toBe('2026-01-08T00:00:00.000Z');
    expect(refillUntil(at, null).getTime() - at.getTime()).toBe(DEFAULT_REFILL_DAYS * 86_400_000);
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
