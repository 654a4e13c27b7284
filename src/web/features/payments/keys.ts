/** Top-ups, the methods offered and the payment history (GET/POST /api/payments…): their query keys. */
export const paymentKeys = {
  all: ['payments'] as const,
  list: () => ['payments', 'list'] as const,
  methods: () => ['payments', 'methods'] as const,
};
