import { useMutation, useQuery } from '@tanstack/react-query';
import type { TopUpInput } from '../../../core/contracts/payments';
import { api, timed } from '../../lib/api';

/** Top-ups, the methods offered and the payment history (GET/POST /api/payments…). */
export const paymentKeys = {
  all: ['payments'] as const,
  list: () => ['payments', 'list'] as const,
  methods: () => ['payments', 'methods'] as const,
};

export const fetchPayments = async () => (await timed((o) => api.payments.$get({}, o))).payments;

export function usePayments(enabled = true) {
  return useQuery({ queryKey: paymentKeys.list(), queryFn: fetchPayments, staleTime: 30_000, enabled });
}

/** The methods the top-up dialog offers, with the rate in force for each currency (GET /api/payments/methods). */
export function usePaymentMethods(enabled = true) {
  return useQuery({
    queryKey: paymentKeys.methods(),
    queryFn: async () => (await timed((o) => api.payments.methods.$get({}, o))).methods,
    staleTime: 60_000,
    enabled,
  });
}

export function useTopUp() {
  return useMutation({
    mutationFn: (input: TopUpInput) => timed((o) => api.payments.topup.$post({ json: input }, o)),
  });
}
