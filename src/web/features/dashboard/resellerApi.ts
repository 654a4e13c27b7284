import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { timed } from '../../lib/timed';

/** The customer's API keys (/api/api-keys) and what each order allows (/api/orders/actions). */
export const resellerKeys = {
  keys: () => ['dashboard', 'api-keys'] as const,
  actions: () => ['dashboard', 'orders', 'actions'] as const,
};

export function useApiKeys() {
  return useQuery({ queryKey: resellerKeys.keys(), queryFn: () => timed((o) => api['api-keys'].$get({}, o)), staleTime: 15_000 });
}

export const createApiKey = (name: string) => timed((o) => api['api-keys'].$post({ json: { name } }, o));
export const rotateApiKey = (id: string) => timed((o) => api['api-keys'][':id'].rotate.$post({ param: { id: encodeURIComponent(id) } }, o));
export const revokeApiKey = async (id: string): Promise<void> => {
  await timed((o) => api['api-keys'][':id'].$delete({ param: { id: encodeURIComponent(id) } }, o));
};

/** Refill and cancel buttons and the "via API" mark of the history; follows the order list. */
export function useOrderActions(enabled: boolean) {
  return useQuery({
    queryKey: resellerKeys.actions(),
    queryFn: async () => (await timed((o) => api.orders.actions.$get({}, o))).orders,
    staleTime: 15_000,
    enabled,
  });
}

export const requestRefill = (orderId: string) => timed((o) => api.orders[':id'].refill.$post({ param: { id: encodeURIComponent(orderId) } }, o));
export const requestCancel = (orderId: string) => timed((o) => api.orders[':id'].cancel.$post({ param: { id: encodeURIComponent(orderId) } }, o));
