import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import type { PriceTier } from '../../../core/catalog';
import type { OrderView } from '../../../core/contracts/orders';
import { isErrorCode } from '../../../core/errors';
import type { Settings } from '../../../core/settings';
import { ApiError } from '../auth/api';

/**
 * The admin API (/api/admin/*) for the browser: one request helper, a query-key factory and a
 * TanStack Query hook per endpoint. Refusals arrive as `ApiError` with the server's stable code.
 */
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export async function adminRequest<T>(method: Method, path: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError('NETWORK', 0);
  }
  const data: unknown = res.status === 204 ? null : await res.json().catch(() => null);
  if (!res.ok) {
    const error = (data as { error?: { code?: unknown; details?: Record<string, unknown> } } | null)?.error;
    throw new ApiError(isErrorCode(error?.code) ? error.code : 'INTERNAL', res.status, error?.details);
  }
  return data as T;
}

// ─── Shapes ────────────────────────────────────────────────────────────────────────────────

export type Role = 'user' | 'moderator' | 'admin';
export const ROLES: readonly Role[] = ['user', 'moderator', 'admin'];

export interface DashboardData {
  totalUsers: number;
  totalOrders: number;
  pendingOrders: number;
  completedOrders: number;
  revenueQepik: number;
  activeServices: number;
  latestOrders: { id: string; number: string; serviceName: string; createdAt: string; chargeCents: number; status: OrderView['status'] }[];
}

export interface AdminUser {
  id: string;
  name: string;
  email: string;
  balanceCents: number;
  createdAt: string;
  roles: Role[];
}

export type AdminOrder = OrderView & { userId: string; email: string };
export interface OrdersQuery {
  q?: string;
  status?: string;
  platform?: string;
  from?: string;
  to?: string;
  page: number;
}
export interface OrdersPage {
  total: number;
  page: number;
  pageSize: number;
  orders: AdminOrder[];
}
export interface LedgerEntry {
  id: number;
  amountCents: number;
  kind: string;
  reference: string;
  note: string | null;
  createdAt: string;
}
export interface OrderDetail {
  order: AdminOrder & {
    name?: string;
    providerOrderId: string | null;
    providerStatus: string | null;
    params: Record<string, unknown> | null;
    submittedAt: string | null;
    checkedAt: string | null;
  };
  ledger: LedgerEntry[];
}

export interface LocalService {
  id: number;
  name: string;
  description: string | null;
  priceQepik: number | null;
  category: 'standard' | 'social_media';
  platform: string | null;
  icon: string | null;
  active: boolean;
  orderIndex: number;
}
export type LocalServiceInput = Omit<LocalService, 'id'>;

export interface ApiService {
  id: string;
  name: string;
  platform: string;
  amountMinimum: number;
  amountIncrement: number;
  tiers: PriceTier[];
}

export interface ServiceName {
  apiServiceName: string;
  az: string;
  tr: string;
}

export type Localized = { az: string; tr: string; en: string };
export interface BlogPost {
  id: number;
  slug: string;
  title: Localized;
  excerpt: Localized;
  body: Localized;
  published: boolean;
  publishedOn: string;
}
export type BlogPostInput = Omit<BlogPost, 'id'>;

export interface FaqItem {
  id: number;
  question: Localized;
  answer: Localized;
  orderIndex: number;
  published: boolean;
}
export type FaqInput = Omit<FaqItem, 'id'>;

export interface SettingsStats {
  users: number;
  orders: number;
  revenueQepik: number;
  openTickets: number;
}

export interface AuditEntry {
  id: number;
  actorEmail: string;
  action: string;
  targetType: string;
  targetId: string | null;
  details: Record<string, unknown>;
  createdAt: string;
}

// ─── Keys ──────────────────────────────────────────────────────────────────────────────────

export const adminKeys = {
  all: ['admin'] as const,
  dashboard: () => [...adminKeys.all, 'dashboard'] as const,
  users: (q: string) => [...adminKeys.all, 'users', q] as const,
  usersAll: () => [...adminKeys.all, 'users'] as const,
  orders: (q: OrdersQuery) => [...adminKeys.all, 'orders', q] as const,
  ordersAll: () => [...adminKeys.all, 'orders'] as const,
  order: (id: string) => [...adminKeys.all, 'order', id] as const,
  services: () => [...adminKeys.all, 'services'] as const,
  apiServices: () => [...adminKeys.all, 'api-services'] as const,
  serviceNames: () => [...adminKeys.all, 'service-names'] as const,
  blog: () => [...adminKeys.all, 'blog'] as const,
  faq: () => [...adminKeys.all, 'faq'] as const,
  settings: () => [...adminKeys.all, 'settings'] as const,
  stats: () => [...adminKeys.all, 'settings-stats'] as const,
  audit: () => [...adminKeys.all, 'audit'] as const,
};

const get = <T>(path: string) => () => adminRequest<T>('GET', path);

/** A mutation that refreshes the given queries once it succeeded. */
function useAdminMutation<V, R>(fn: (vars: V) => Promise<R>, invalidate: QueryKey[]) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: async () => {
      await Promise.all(invalidate.map((queryKey) => client.invalidateQueries({ queryKey })));
    },
  });
}

// ─── Dashboard ─────────────────────────────────────────────────────────────────────────────

export const useDashboard = () => useQuery({ queryKey: adminKeys.dashboard(), queryFn: get<DashboardData>('/api/admin/dashboard'), staleTime: 10_000 });

// ─── Users ─────────────────────────────────────────────────────────────────────────────────

export const useUsers = (q: string) =>
  useQuery({
    queryKey: adminKeys.users(q),
    queryFn: get<{ total: number; users: AdminUser[] }>(`/api/admin/users${q ? `?q=${encodeURIComponent(q)}` : ''}`),
    placeholderData: keepPreviousData,
  });

const userPath = (id: string) => `/api/admin/users/${encodeURIComponent(id)}`;
export const useAddRole = () =>
  useAdminMutation((v: { userId: string; role: Role }) => adminRequest('POST', `${userPath(v.userId)}/roles`, { role: v.role }), [adminKeys.usersAll(), adminKeys.audit()]);
export const useRemoveRole = () =>
  useAdminMutation((v: { userId: string; role: Role }) => adminRequest('DELETE', `${userPath(v.userId)}/roles/${v.role}`), [adminKeys.usersAll(), adminKeys.audit()]);
export const useAdjustBalance = () =>
  useAdminMutation(
    (v: { userId: string; amountCents: number; reason: string }) =>
      adminRequest<{ balanceCents: number }>('POST', `${userPath(v.userId)}/balance`, { amountCents: v.amountCents, reason: v.reason }),
    [adminKeys.usersAll(), adminKeys.audit()],
  );

// ─── Orders ────────────────────────────────────────────────────────────────────────────────

export function ordersSearch(q: OrdersQuery): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) if (v !== undefined && v !== '' && !(k === 'page' && v === 1)) params.set(k, String(v));
  const s = params.toString();
  return s ? `?${s}` : '';
}

export const useOrders = (q: OrdersQuery) =>
  useQuery({ queryKey: adminKeys.orders(q), queryFn: get<OrdersPage>(`/api/admin/orders${ordersSearch(q)}`), placeholderData: keepPreviousData });
export const useOrder = (id: string | null) =>
  useQuery({ queryKey: adminKeys.order(id ?? ''), queryFn: get<OrderDetail>(`/api/admin/orders/${encodeURIComponent(id ?? '')}`), enabled: !!id });

const orderPath = (id: string) => `/api/admin/orders/${encodeURIComponent(id)}`;
const orderKeys = (id: string) => [adminKeys.ordersAll(), adminKeys.order(id), adminKeys.dashboard(), adminKeys.audit(), adminKeys.usersAll()];
export const useResync = (id: string) => useAdminMutation(() => adminRequest<OrderView>('POST', `${orderPath(id)}/resync`), orderKeys(id));
export const useRefund = (id: string) =>
  useAdminMutation((v: { amountCents?: number; reason: string }) => adminRequest<OrderView>('POST', `${orderPath(id)}/refund`, v), orderKeys(id));
export const useResubmit = (id: string) => useAdminMutation(() => adminRequest<OrderView>('POST', `${orderPath(id)}/resubmit`), orderKeys(id));

// ─── Catalogue ─────────────────────────────────────────────────────────────────────────────

export const useLocalServices = () =>
  useQuery({ queryKey: adminKeys.services(), queryFn: async () => (await adminRequest<{ services: LocalService[] }>('GET', '/api/admin/catalog/services')).services });
export const useSaveService = () =>
  useAdminMutation(
    (v: { id?: number; input: LocalServiceInput }) =>
      v.id ? adminRequest<LocalService>('PUT', `/api/admin/catalog/services/${v.id}`, v.input) : adminRequest<LocalService>('POST', '/api/admin/catalog/services', v.input),
    [adminKeys.services(), adminKeys.dashboard(), adminKeys.audit()],
  );
export const useDeleteService = () =>
  useAdminMutation((id: number) => adminRequest('DELETE', `/api/admin/catalog/services/${id}`), [adminKeys.services(), adminKeys.dashboard(), adminKeys.audit()]);

export const useApiServices = () =>
  useQuery({ queryKey: adminKeys.apiServices(), queryFn: async () => (await adminRequest<{ services: ApiService[] }>('GET', '/api/admin/catalog/api-services')).services });
export const useRefreshApiServices = () =>
  useAdminMutation(() => adminRequest<Record<string, unknown>>('POST', '/api/admin/catalog/api-services/refresh'), [adminKeys.apiServices(), adminKeys.audit()]);

export const useServiceNames = () =>
  useQuery({ queryKey: adminKeys.serviceNames(), queryFn: async () => (await adminRequest<{ names: ServiceName[] }>('GET', '/api/admin/catalog/service-names')).names });
export const useSaveServiceName = () =>
  useAdminMutation(
    (v: { original?: string; input: ServiceName }) =>
      v.original !== undefined
        ? adminRequest('PUT', `/api/admin/catalog/service-names/${encodeURIComponent(v.original)}`, v.input)
        : adminRequest('POST', '/api/admin/catalog/service-names', v.input),
    [adminKeys.serviceNames(), adminKeys.audit()],
  );
export const useDeleteServiceName = () =>
  useAdminMutation((name: string) => adminRequest('DELETE', `/api/admin/catalog/service-names/${encodeURIComponent(name)}`), [adminKeys.serviceNames(), adminKeys.audit()]);

// ─── Content ───────────────────────────────────────────────────────────────────────────────

export const useBlogPosts = () =>
  useQuery({ queryKey: adminKeys.blog(), queryFn: async () => (await adminRequest<{ posts: BlogPost[] }>('GET', '/api/admin/content/blog')).posts });
export const useSaveBlogPost = () =>
  useAdminMutation(
    (v: { id?: number; input: BlogPostInput }) =>
      v.id ? adminRequest<BlogPost>('PUT', `/api/admin/content/blog/${v.id}`, v.input) : adminRequest<BlogPost>('POST', '/api/admin/content/blog', v.input),
    [adminKeys.blog(), adminKeys.audit()],
  );
export const useDeleteBlogPost = () => useAdminMutation((id: number) => adminRequest('DELETE', `/api/admin/content/blog/${id}`), [adminKeys.blog(), adminKeys.audit()]);

export const useFaqItems = () =>
  useQuery({ queryKey: adminKeys.faq(), queryFn: async () => (await adminRequest<{ items: FaqItem[] }>('GET', '/api/admin/content/faq')).items });
export const useSaveFaqItem = () =>
  useAdminMutation(
    (v: { id?: number; input: FaqInput }) =>
      v.id ? adminRequest<FaqItem>('PUT', `/api/admin/content/faq/${v.id}`, v.input) : adminRequest<FaqItem>('POST', '/api/admin/content/faq', v.input),
    [adminKeys.faq(), adminKeys.audit()],
  );
export const useDeleteFaqItem = () => useAdminMutation((id: number) => adminRequest('DELETE', `/api/admin/content/faq/${id}`), [adminKeys.faq(), adminKeys.audit()]);

// ─── Settings and audit ────────────────────────────────────────────────────────────────────

export const useSettings = () => useQuery({ queryKey: adminKeys.settings(), queryFn: get<Settings>('/api/admin/settings') });
export const useSettingsStats = () => useQuery({ queryKey: adminKeys.stats(), queryFn: get<SettingsStats>('/api/admin/settings/stats') });
export const useSaveSettings = () =>
  useAdminMutation((changes: Partial<Settings>) => adminRequest<Settings>('PUT', '/api/admin/settings', changes), [adminKeys.settings(), adminKeys.audit()]);

export const useAudit = () =>
  useQuery({ queryKey: adminKeys.audit(), queryFn: async () => (await adminRequest<{ entries: AuditEntry[] }>('GET', '/api/admin/audit')).entries });
