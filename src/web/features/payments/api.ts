import { useMutation, useQuery } from '@tanstack/react-query';
import type { CouponCheckInput } from '../../../core/contracts/bonuses';
import type { TopUpInput } from '../../../core/contracts/payments';
import { api, timed } from '../../lib/api';

import { paymentKeys } from './keys';

/** Top-ups, the methods offered and the payment history (GET/POST /api/payments…). */
export { paymentKeys } from './keys';

export const fetchPayments = async () => (await timed((o) => api.payments.$get({}, o))).payments;

export function usePayments(enabled = true) {
  return useQuery({ queryKey: paymentKeys.list(), queryFn: fetchPayments, staleTime: 30_000, enabled });
}

const fetchMethods = async () => timed((o) => api.payments.methods.$get({}, o));

/** The methods the top-up dialog offers, with the rate in force for each currency (GET /api/payments/methods). */
export function usePaymentMethods(enabled = true) {
  return useQuery({ queryKey: paymentKeys.methods(), queryFn: fetchMethods, staleTime: 60_000, enabled, select: (d) => d.methods });
}

/** The deposit bonus rules in force, read with the methods (docs/rules.md#bonuses). */
export function useBonusRules(enabled = true) {
  return useQuery({ queryKey: paymentKeys.methods(), queryFn: fetchMethods, staleTime: 60_000, enabled, select: (d) => d.bonusRules });
}

/** What a coupon gives on a top-up, asked before paying (POST /api/payments/coupon). */
export function useCouponCheck() {
  return useMutation({
    mutationFn: (input: CouponCheckInput) => timed((o) => api.payments.coupon.$post({ json: input }, o)),
  });
}

export function useTopUp() {
  return useMutation({
    mutationFn: (input: TopUpInput) => timed((o) => api.payments.topup.$post({ json: input }, o)),
  });
}
