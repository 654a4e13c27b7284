import { useQuery } from '@tanstack/react-query';
import type { ApiKeyList, CreatedApiKey, OrderActionsList } from '../../../core/contracts/reseller';
import type { OrderView } from '../../../core/contracts/orders';
import { request } from '../../lib/api';
import { getJson, postJson, REQUEST_TIMEOUT_MS } from './http';

/** The customer's API keys (/api/api-keys) and what each order allows (/api/orders/actions). */
export const resellerKeys = {
  keys: () => ['dashboard', 'api-keys'] as const,
  actions: () => ['dashboard', 'orders', 'actions'] as const,
};

export function useApiKeys() {
  return useQuery({ queryKey: resellerKeys.keys(), queryFn: () => getJson<ApiKeyList>('/api/api-keys'), staleTime: 15_000 });
}

export const createApiKey = (name: string) => postJson<CreatedApiKey>('/api/api-keys', { name });
export const rotateApiKey = (id: string) => postJson<CreatedApiKey>(`/api/api-keys/${encodeURIComponent(id)}/rotate`, {});
export const revokeApiKey = (id: string) => request<void>('DELETE', `/api/api-keys/${encodeURIComponent(id)}`, undefined, REQUEST_TIMEOUT_MS);

/** Refill and cancel buttons and the "via API" mark of the history; follows the order list. */
export function useOrderActions(enabled: boolean) {
  return useQuery({
    queryKey: resellerKeys.actions(),
    queryFn: () => getJson<OrderActionsList>('/api/orders/actions').then((r) => r.orders),
    staleTime: 15_000,
    enabled,
  });
}

export const requestRefill = (orderId: string) => postJson<{ refill: { id: number; status: string } }>(`/api/orders/${encodeURIComponent(orderId)}/refill`, {});
export const requestCancel = (orderId: string) => postJson<OrderView>(`/api/orders/${encodeURIComponent(orderId)}/cancel`, {});
