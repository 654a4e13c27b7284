import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { hc, type ClientResponse, type InferResponseType } from 'hono/client';
import type { z } from 'zod';
import type { adminOrdersQuerySchema, BlogPostInput, FaqInput, LocalServiceInput, paramTextOverrideInputSchema, roleSchema, ServiceNameInput } from '../../../core/contracts/admin';
import { isErrorCode } from '../../../core/errors';
import type { Language } from '../../../core/i18n';
import type { Settings } from '../../../core/settings';
import type { AdminApiType } from '../../../server/admin/routes';
import { ApiError } from '../../lib/api';

/**
 * The admin API (/api/admin/*) for the browser: a query-key factory and a TanStack Query hook per
 * endpoint, over a client typed by the server's routes (`AdminApiType`), so every answer's shape
 * comes from the handler that sends it. Refusals arrive as `ApiError` with the server's stable code.
 */
const api = hc<AdminApiType>('/api/admin', { headers: { accept: 'application/json' }, init: { credentials: 'same-origin' } });

/** A path segment as sent: the client puts parameters into the address as they are. */
const seg = encodeURIComponent;

/** A call's JSON answer; a refusal throws ApiError with the server's code, no answer NETWORK. */
async function call<T>(sent: Promise<ClientResponse<T>>): Promise<T> {
  let res: ClientResponse<T>;
  try {
    res = await sent;
  } catch {
    throw new ApiError('NETWORK', 0);
  }
  // An answer without a body (204) or with an unreadable one is read as empty.
  const data: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const error = (data as { error?: { code?: unknown; details?: Record<string, unknown> } } | null)?.error;
    throw new ApiError(isErrorCode(error?.code) ? error.code : 'INTERNAL', res.status, error?.details);
  }
  return data as T;
}

// ─── Shapes ────────────────────────────────────────────────────────────────────────────────

export type Role = z.infer<typeof roleSchema>;
export const ROLES: readonly Role[] = ['user', 'moderator', 'admin'];

export type DashboardData = InferResponseType<typeof api.dashboard.$get>;
export type AdminUser = InferResponseType<typeof api.users.$get>['users'][number];
export type OrdersQuery = z.infer<typeof adminOrdersQuerySchema>;
export type OrdersPage = InferResponseType<typeof api.orders.$get>;
export type AdminOrder = OrdersPage['orders'][number];
export type OrderDetail = InferResponseType<(typeof api.orders)[':id']['$get']>;
export type LedgerEntry = OrderDetail['ledger'][number];

export type { LocalServiceInput };
export type LocalService = InferResponseType<typeof api.catalog.services.$get>['services'][number];
export type ApiService = InferResponseType<(typeof api.catalog)['api-services']['$get']>['services'][number];
export type ServiceName = ServiceNameInput;

/** A text in az, tr and en. */
export type Localized = BlogPostInput['title'];
export type { BlogPostInput, FaqInput };
export type BlogPost = InferResponseType<typeof api.content.blog.$get>['posts'][number];
export type FaqItem = InferResponseType<typeof api.content.faq.$get>['items'][number];

export type SettingsStats = InferResponseType<typeof api.settings.stats.$get>;
export type AuditEntry = InferResponseType<typeof api.audit.$get>['entries'][number];

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

export const useDashboard = () => useQuery({ queryKey: adminKeys.dashboard(), queryFn: () => call(api.dashboard.$get()), staleTime: 10_000 });

// ─── Users ─────────────────────────────────────────────────────────────────────────────────

export const useUsers = (q: string) =>
  useQuery({ queryKey: adminKeys.users(q), queryFn: () => call(api.users.$get({ query: q ? { q } : {} })), placeholderData: keepPreviousData });

const user = api.users[':id'];
export const useAddRole = () =>
  useAdminMutation((v: { userId: string; role: Role }) => call(user.roles.$post({ param: { id: seg(v.userId) }, json: { role: v.role } })), [adminKeys.usersAll(), adminKeys.audit()]);
export const useRemoveRole = () =>
  useAdminMutation((v: { userId: string; role: Role }) => call(user.roles[':role'].$delete({ param: { id: seg(v.userId), role: v.role } })), [adminKeys.usersAll(), adminKeys.audit()]);
export const useAdjustBalance = () =>
  useAdminMutation(
    (v: { userId: string; amountCents: number; reason: string }) => call(user.balance.$post({ param: { id: seg(v.userId) }, json: { amountCents: v.amountCents, reason: v.reason } })),
    [adminKeys.usersAll(), adminKeys.audit()],
  );
export const useSetApiAccess = () =>
  useAdminMutation((v: { userId: string; enabled: boolean }) => call(user['api-access'].$put({ param: { id: seg(v.userId) }, json: { enabled: v.enabled } })), [
    adminKeys.usersAll(),
    adminKeys.audit(),
  ]);

// ─── Orders ────────────────────────────────────────────────────────────────────────────────

/** The filters that are set, as query parameters (the first page is the default). */
export function ordersSearch(q: OrdersQuery): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [k, v] of Object.entries(q)) if (v !== undefined && v !== '' && !(k === 'page' && v === 1)) params[k] = String(v);
  return params;
}

export const useOrders = (q: OrdersQuery) =>
  useQuery({ queryKey: adminKeys.orders(q), queryFn: () => call(api.orders.$get({ query: ordersSearch(q) })), placeholderData: keepPreviousData });
export const useOrder = (id: string | null) =>
  useQuery({ queryKey: adminKeys.order(id ?? ''), queryFn: () => call(api.orders[':id'].$get({ param: { id: seg(id ?? '') } })), enabled: !!id });

const order = api.orders[':id'];
const orderKeys = (id: string) => [adminKeys.ordersAll(), adminKeys.order(id), adminKeys.dashboard(), adminKeys.audit(), adminKeys.usersAll()];
export const useResync = (id: string) => useAdminMutation(() => call(order.resync.$post({ param: { id: seg(id) } })), orderKeys(id));
export const useRefund = (id: string) => useAdminMutation((v: { amountCents?: number; reason: string }) => call(order.refund.$post({ param: { id: seg(id) }, json: v })), orderKeys(id));
export const useResubmit = (id: string) => useAdminMutation(() => call(order.resubmit.$post({ param: { id: seg(id) } })), orderKeys(id));
export const useAdminRefill = (id: string) => useAdminMutation(() => call(order.refill.$post({ param: { id: seg(id) } })), orderKeys(id));
export const useAdminCancel = (id: string) => useAdminMutation(() => call(order.cancel.$post({ param: { id: seg(id) } })), orderKeys(id));

// ─── Catalogue ─────────────────────────────────────────────────────────────────────────────

const catalog = api.catalog;
export const useLocalServices = () => useQuery({ queryKey: adminKeys.services(), queryFn: async () => (await call(catalog.services.$get())).services });
export const useSaveService = () =>
  useAdminMutation(
    (v: { id?: number; input: LocalServiceInput }) =>
      v.id ? call(catalog.services[':id'].$put({ param: { id: String(v.id) }, json: v.input })) : call(catalog.services.$post({ json: v.input })),
    [adminKeys.services(), adminKeys.dashboard(), adminKeys.audit()],
  );
export const useDeleteService = () =>
  useAdminMutation((id: number) => call(catalog.services[':id'].$delete({ param: { id: String(id) } })), [adminKeys.services(), adminKeys.dashboard(), adminKeys.audit()]);

export const useApiServices = () => useQuery({ queryKey: adminKeys.apiServices(), queryFn: async () => (await call(catalog['api-services'].$get())).services });
export const useRefreshApiServices = () => useAdminMutation(() => call(catalog['api-services'].refresh.$post()), [adminKeys.apiServices(), adminKeys.audit()]);

export const useServiceNames = () => useQuery({ queryKey: adminKeys.serviceNames(), queryFn: async () => (await call(catalog['service-names'].$get())).names });
export const useSaveServiceName = () =>
  useAdminMutation(
    (v: { original?: string; input: ServiceName }) =>
      v.original !== undefined ? call(catalog['service-names'][':name'].$put({ param: { name: seg(v.original) }, json: v.input })) : call(catalog['service-names'].$post({ json: v.input })),
    [adminKeys.serviceNames(), adminKeys.audit()],
  );
export const useDeleteServiceName = () =>
  useAdminMutation((name: string) => call(catalog['service-names'][':name'].$delete({ param: { name: seg(name) } })), [adminKeys.serviceNames(), adminKeys.audit()]);

export const useParamTexts = () => useQuery({ queryKey: adminKeys.paramTexts(), queryFn: async () => (await call(catalog['param-texts'].$get())).overrides });
/** Saves one kind's texts in one language; every text blank removes the override. */
export const useSaveParamTexts = () =>
  useAdminMutation((input: z.input<typeof paramTextOverrideInputSchema> & { lang: Language }) => call(catalog['param-texts'].$put({ json: input })), [
    adminKeys.paramTexts(),
    adminKeys.audit(),
  ]);

// ─── Content ───────────────────────────────────────────────────────────────────────────────

const content = api.content;
export const useBlogPosts = () => useQuery({ queryKey: adminKeys.blog(), queryFn: async () => (await call(content.blog.$get())).posts });
export const useSaveBlogPost = () =>
  useAdminMutation(
    (v: { id?: number; input: BlogPostInput }) =>
      v.id ? call(content.blog[':id'].$put({ param: { id: String(v.id) }, json: v.input })) : call(content.blog.$post({ json: v.input })),
    [adminKeys.blog(), adminKeys.audit()],
  );
export const useDeleteBlogPost = () => useAdminMutation((id: number) => call(content.blog[':id'].$delete({ param: { id: String(id) } })), [adminKeys.blog(), adminKeys.audit()]);

export const useFaqItems = () => useQuery({ queryKey: adminKeys.faq(), queryFn: async () => (await call(content.faq.$get())).items });
export const useSaveFaqItem = () =>
  useAdminMutation(
    (v: { id?: number; input: FaqInput }) => (v.id ? call(content.faq[':id'].$put({ param: { id: String(v.id) }, json: v.input })) : call(content.faq.$post({ json: v.input }))),
    [adminKeys.faq(), adminKeys.audit()],
  );
export const useDeleteFaqItem = () => useAdminMutation((id: number) => call(content.faq[':id'].$delete({ param: { id: String(id) } })), [adminKeys.faq(), adminKeys.audit()]);

// ─── Settings and audit ────────────────────────────────────────────────────────────────────

export const useSettings = () => useQuery({ queryKey: adminKeys.settings(), queryFn: () => call(api.settings.$get()) });
export const useSettingsStats = () => useQuery({ queryKey: adminKeys.stats(), queryFn: () => call(api.settings.stats.$get()) });
export const useSaveSettings = () => useAdminMutation((changes: Partial<Settings>) => call(api.settings.$put({ json: changes })), [adminKeys.settings(), adminKeys.audit()]);

export const useAudit = () => useQuery({ queryKey: adminKeys.audit(), queryFn: async () => (await call(api.audit.$get())).entries });
