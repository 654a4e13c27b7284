import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import type { z } from 'zod';
import type { PriceTier } from '../../../core/catalog';
import type {
  adminOrdersQuerySchema,
  BlogPostInput,
  faqInputSchema,
  LocalServiceInput,
  ParamTextOverrideInput,
  paramTextOverrideInputSchema,
  roleSchema,
  serviceNameInputSchema,
} from '../../../core/contracts/admin';
import type { Language } from '../../../core/i18n';
import type { ParamTextOverride } from '../../../core/paramTexts';
import type { OrderView } from '../../../core/contracts/orders';
import type { Settings } from '../../../core/settings';
import { request } from '../../lib/api';

/**
 * The admin API (/api/admin/*) for the browser: a query-key factory and a TanStack Query hook per
 * endpoint, over the app's JSON request helper. Refusals arrive as `ApiError` with the server's
 * stable code. Shapes the server validates come from its zod schemas.
 */
// ─── Shapes ────────────────────────────────────────────────────────────────────────────────

export type Role = z.infer<typeof roleSchema>;
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
  /** False when the customer's reseller API access is turned off. */
  apiAccess: boolean;
}

export type AdminOrder = OrderView & { userId: string; email: string };
export type OrdersQuery = z.infer<typeof adminOrdersQuerySchema>;
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
    /** Placed through the reseller API, and its id there. */
    viaApi: boolean;
    apiId: number;
    submittedAt: string | null;
    checkedAt: string | null;
  };
  ledger: LedgerEntry[];
}

export type { LocalServiceInput };
export interface LocalService extends LocalServiceInput {
  id: number;
}

export interface ApiService {
  id: string;
  name: string;
  platform: string;
  amountMinimum: number;
  amountIncrement: number;
  tiers: PriceTier[];
}

export type ServiceName = z.infer<typeof serviceNameInputSchema>;

/** A text in az, tr and en. */
export type Localized = BlogPostInput['title'];
export type { BlogPostInput };
export interface BlogPost extends BlogPostInput {
  id: number;
}

export type FaqInput = z.infer<typeof faqInputSchema>;
export interface FaqItem extends FaqInput {
  id: number;
}

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
  paramTexts: () => [...adminKeys.all, 'param-texts'] as const,
  blog: () => [...adminKeys.all, 'blog'] as const,
  faq: () => [...adminKeys.all, 'faq'] as const,
  settings: () => [...adminKeys.all, 'settings'] as const,
  stats: () => [...adminKeys.all, 'settings-stats'] as const,
  audit: () => [...adminKeys.all, 'audit'] as const,
};

const get = <T>(path: string) => () => request<T>('GET', path);

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
  useAdminMutation((v: { userId: string; role: Role }) => request('POST', `${userPath(v.userId)}/roles`, { role: v.role }), [adminKeys.usersAll(), adminKeys.audit()]);
export const useRemoveRole = () =>
  useAdminMutation((v: { userId: string; role: Role }) => request('DELETE', `${userPath(v.userId)}/roles/${v.role}`), [adminKeys.usersAll(), adminKeys.audit()]);
export const useAdjustBalance = () =>
  useAdminMutation(
    (v: { userId: string; amountCents: number; reason: string }) =>
      request<{ balanceCents: number }>('POST', `${userPath(v.userId)}/balance`, { amountCents: v.amountCents, reason: v.reason }),
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
export const useResync = (id: string) => useAdminMutation(() => request<OrderView>('POST', `${orderPath(id)}/resync`), orderKeys(id));
export const useRefund = (id: string) =>
  useAdminMutation((v: { amountCents?: number; reason: string }) => request<OrderView>('POST', `${orderPath(id)}/refund`, v), orderKeys(id));
export const useResubmit = (id: string) => useAdminMutation(() => request<OrderView>('POST', `${orderPath(id)}/resubmit`), orderKeys(id));
export const useAdminRefill = (id: string) => useAdminMutation(() => request<{ refill: { id: number; status: string } }>('POST', `${orderPath(id)}/refill`), orderKeys(id));
export const useAdminCancel = (id: string) => useAdminMutation(() => request<OrderView>('POST', `${orderPath(id)}/cancel`), orderKeys(id));
export const useSetApiAccess = () =>
  useAdminMutation((v: { userId: string; enabled: boolean }) => request<{ apiAccess: boolean }>('PUT', `/api/admin/users/${encodeURIComponent(v.userId)}/api-access`, { enabled: v.enabled }), [adminKeys.usersAll(), adminKeys.audit()]);

// ─── Catalogue ─────────────────────────────────────────────────────────────────────────────

export const useLocalServices = () =>
  useQuery({ queryKey: adminKeys.services(), queryFn: async () => (await request<{ services: LocalService[] }>('GET', '/api/admin/catalog/services')).services });
export const useSaveService = () =>
  useAdminMutation(
    (v: { id?: number; input: LocalServiceInput }) =>
      v.id ? request<LocalService>('PUT', `/api/admin/catalog/services/${v.id}`, v.input) : request<LocalService>('POST', '/api/admin/catalog/services', v.input),
    [adminKeys.services(), adminKeys.dashboard(), adminKeys.audit()],
  );
export const useDeleteService = () =>
  useAdminMutation((id: number) => request('DELETE', `/api/admin/catalog/services/${id}`), [adminKeys.services(), adminKeys.dashboard(), adminKeys.audit()]);

export const useApiServices = () =>
  useQuery({ queryKey: adminKeys.apiServices(), queryFn: async () => (await request<{ services: ApiService[] }>('GET', '/api/admin/catalog/api-services')).services });
export const useRefreshApiServices = () =>
  useAdminMutation(() => request<Record<string, unknown>>('POST', '/api/admin/catalog/api-services/refresh'), [adminKeys.apiServices(), adminKeys.audit()]);

export const useServiceNames = () =>
  useQuery({ queryKey: adminKeys.serviceNames(), queryFn: async () => (await request<{ names: ServiceName[] }>('GET', '/api/admin/catalog/service-names')).names });
export const useSaveServiceName = () =>
  useAdminMutation(
    (v: { original?: string; input: ServiceName }) =>
      v.original !== undefined
        ? request('PUT', `/api/admin/catalog/service-names/${encodeURIComponent(v.original)}`, v.input)
        : request('POST', '/api/admin/catalog/service-names', v.input),
    [adminKeys.serviceNames(), adminKeys.audit()],
  );
export const useDeleteServiceName = () =>
  useAdminMutation((name: string) => request('DELETE', `/api/admin/catalog/service-names/${encodeURIComponent(name)}`), [adminKeys.serviceNames(), adminKeys.audit()]);

export const useParamTexts = () =>
  useQuery({ queryKey: adminKeys.paramTexts(), queryFn: async () => (await request<{ overrides: ParamTextOverride[] }>('GET', '/api/admin/catalog/param-texts')).overrides });
/** Saves one kind's texts in one language; every text blank removes the override. */
export const useSaveParamTexts = () =>
  useAdminMutation((input: z.input<typeof paramTextOverrideInputSchema> & { lang: Language }) => request<ParamTextOverrideInput>('PUT', '/api/admin/catalog/param-texts', input), [
    adminKeys.paramTexts(),
    adminKeys.audit(),
  ]);

// ─── Content ───────────────────────────────────────────────────────────────────────────────

export const useBlogPosts = () =>
  useQuery({ queryKey: adminKeys.blog(), queryFn: async () => (await request<{ posts: BlogPost[] }>('GET', '/api/admin/content/blog')).posts });
export const useSaveBlogPost = () =>
  useAdminMutation(
    (v: { id?: number; input: BlogPostInput }) =>
      v.id ? request<BlogPost>('PUT', `/api/admin/content/blog/${v.id}`, v.input) : request<BlogPost>('POST', '/api/admin/content/blog', v.input),
    [adminKeys.blog(), adminKeys.audit()],
  );
export const useDeleteBlogPost = () => useAdminMutation((id: number) => request('DELETE', `/api/admin/content/blog/${id}`), [adminKeys.blog(), adminKeys.audit()]);

export const useFaqItems = () =>
  useQuery({ queryKey: adminKeys.faq(), queryFn: async () => (await request<{ items: FaqItem[] }>('GET', '/api/admin/content/faq')).items });
export const useSaveFaqItem = () =>
  useAdminMutation(
    (v: { id?: number; input: FaqInput }) =>
      v.id ? request<FaqItem>('PUT', `/api/admin/content/faq/${v.id}`, v.input) : request<FaqItem>('POST', '/api/admin/content/faq', v.input),
    [adminKeys.faq(), adminKeys.audit()],
  );
export const useDeleteFaqItem = () => useAdminMutation((id: number) => request('DELETE', `/api/admin/content/faq/${id}`), [adminKeys.faq(), adminKeys.audit()]);

// ─── Settings and audit ────────────────────────────────────────────────────────────────────

export const useSettings = () => useQuery({ queryKey: adminKeys.settings(), queryFn: get<Settings>('/api/admin/settings') });
export const useSettingsStats = () => useQuery({ queryKey: adminKeys.stats(), queryFn: get<SettingsStats>('/api/admin/settings/stats') });
export const useSaveSettings = () =>
  useAdminMutation((changes: Partial<Settings>) => request<Settings>('PUT', '/api/admin/settings', changes), [adminKeys.settings(), adminKeys.audit()]);

export const useAudit = () =>
  useQuery({ queryKey: adminKeys.audit(), queryFn: async () => (await request<{ entries: AuditEntry[] }>('GET', '/api/admin/audit')).entries });
