import { useMutation, useQuery } from '@tanstack/react-query';
import type { TopUpInput } from '../../../core/contracts/payments';
import { DEFAULT_SETTINGS, type PublicSettings } from '../../../core/settings';
import { api, timed } from '../../lib/api';

/** Card top-ups and the payment history (GET/POST /api/payments…), and the public exchange rate. */
export const paymentKeys = {
  all: ['payments'] as const,
  list: () => ['payments', 'list'] as const,
  settings: () => ['settings', 'public'] as const,
};

export const fetchPayments = async () => (await timed((o) => api.payments.$get({}, o))).payments;

export function usePayments(enabled = true) {
  return useQuery({ queryKey: paymentKeys.list(), queryFn: fetchPayments, staleTime: 30_000, enabled });
}

export function useTopUp() {
  return useMutation({
    mutationFn: (input: TopUpInput) => timed((o) => api.payments.topup.$post({ json: input }, o)),
  });
}

/**
 * The public settings; the top-up dialog needs `usd_azn_rate`. A failure falls back to the
 * defaults (settings load failure is only logged; docs/rules.md#payments) — the server charges its own rate.
 */
export function usePublicSettings() {
  return useQuery({
    queryKey: paymentKeys.settings(),
    queryFn: async (): Promise<PublicSettings> => {
      try {
        return await timed((o) => api.settings.$get({}, o));
      } catch (err) {
        console.warn('settings not loaded', err);
        return DEFAULT_SETTINGS;
      }
    },
    staleTime: 5 * 60_000,
  });
}

/** A rate as the plain decimal text the money helpers take ("1.7"); null when unusable. */
export function rateText(rate: number | undefined): string | null {
  if (rate === undefined || !Number.isFinite(rate) || rate <= 0) return null;
  const text = String(rate);
  return /^\d+(?:\.\d+)?$/.test(text) ? text : null;
}
