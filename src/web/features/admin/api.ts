import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import type { PaymentMethodInput } from '../../../core/contracts/payments';
import type { PaymentMethodKind } from '../../../core/paymentMethods';
import { hc, type InferResponseType } from 'hono/client';
import type { z } from 'zod';
import type { adminAuditQuerySchema, adminOrdersQuerySchema, BlogPostInput, CatalogImportInput, FaqInput, LocalServiceInput, paramTextOverrideInputSchema, providerInputSchema, providerUpdateSchema, roleSchema, ServiceNameInput, ServiceSourcesInput } from '../../../core/contracts/admin';
import type { AnalyticsGroup, AnalyticsPeriod, AnalyticsTable, Breakdown } from '../../../core/analytics';
import type { Language } from '../../../core/i18n';
import type { Settings } from '../../../core/settings';
import type { CustomerGroupInput, CustomerPricingInput } from '../../../core/contracts/discounts';
import type { BonusRuleInput, CouponInput } from '../../../core/contracts/bonuses';
import type { AdminApiType } from '../../../server/admin/routes';
import { unwrap } from '../../lib/api';

/**
 * The admin API (/api/admin/*) for the browser: a query-key factory and a TanStack Query hook per
 * endpoint, over a client typed by the server's routes (`AdminApiType`), so every answer's shape
 * comes from the handler that sends it. Refusals arrive as `ApiError` with the server's stable code.
 */
const api = hc<AdminApiType>('/api/admin', { headers: { accept: 'application/json' } });

/** A path segment as sent: the client puts parameters into the address as they are. */
const seg = encodeURIComponent;

// ─── Shapes ────────────────────────────────────────────────────────────────────────────────

export type Role = z.infer<typeof roleSchema>;
export { ROLES } from '../../../core/permissions';

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

export type AdminProvider = InferResponseType<typeof api.providers.$get>['providers'][number];
export type ProviderInput = z.input<typeof providerInputSchema>;
export type ProviderUpdate = z.input<typeof providerUpdateSchema>;
export type ProviderService = InferResponseType<(typeof api.providers)[':id']['services']['$get']>['services'][number];
export type CatalogueRead = InferResponseType<(typeof api.providers)[':id']['catalogue']['$post']>;
export type CatalogChange = InferResponseType<typeof api.catalog.changes.$get>['changes'][number];
export type ImportPreviewLine = InferResponseType<typeof api.catalog.import.preview.$post>['lines'][number];
export type ServiceSources = InferResponseType<(typeof api.catalog.services)[':id']['sources']['$get']>;
export type { CatalogImportInput, ServiceSourcesInput };

export type SettingsStats = InferResponseType<typeof api.settings.stats.$get>;
export type AuditQuery = z.input<typeof adminAuditQuerySchema>;
export type AuditPage = InferResponseType<typeof api.audit.$get>;
export type AuditEntry = AuditPage['entries'][number];

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
  paymentMethods: () => [...adminKeys.all, 'payment-methods'] as const,
  stats: () => [...adminKeys.all, 'settings-stats'] as const,
  audit: () => [...adminKeys.all, 'audit'] as const,
  auditPage: (q: AuditQuery) => [...adminKeys.audit(), q] as const,
  providers: () => [...adminKeys.all, 'providers'] as const,
  providerServices: (id: string) => [...adminKeys.all, 'provider-services', id] as const,
  providerServicesAll: () => [...adminKeys.all, 'provider-services'] as const,
  changes: (all: boolean) => [...adminKeys.all, 'catalog-changes', all] as const,
  changesAll: () => [...adminKeys.all, 'catalog-changes'] as const,
  importPreview: (input: CatalogImportInput) => [...adminKeys.all, 'import-preview', input] as const,
  serviceSources: (id: string) => [...adminKeys.all, 'service-sources', id] as const,
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

export const useDashboard = () => useQuery({ queryKey: adminKeys.dashboard(), queryFn: () => unwrap((o) => api.dashboard.$get({}, o)), staleTime: 10_000 });

// ─── Users ─────────────────────────────────────────────────────────────────────────────────

export const useUsers = (q: string) =>
  useQuery({ queryKey: adminKeys.users(q), queryFn: () => unwrap((o) => api.users.$get({ query: q ? { q } : {} }, o)), placeholderData: keepPreviousData });

const user = api.users[':id'];
/** A user's recent sign-ins and whether they have a second factor (docs/rules.md#second-factor). */
export const useUserSignIns = (userId: string) =>
  useQuery({ queryKey: [...adminKeys.usersAll(), 'sign-ins', userId], queryFn: () => unwrap((o) => user['sign-ins'].$get({ param: { id: seg(userId) } }, o)) });
/** Removes another account's lost second factor, with the team's reason (docs/rules.md#second-factor). */
export const useResetSecondFactor = () =>
  useAdminMutation((v: { userId: string; reason: string }) => unwrap((o) => user['second-factor'].reset.$post({ param: { id: seg(v.userId) }, json: { reason: v.reason } }, o)), [
    adminKeys.usersAll(),
    adminKeys.audit(),
  ]);
export const useAddRole = () =>
  useAdminMutation((v: { userId: string; role: Role }) => unwrap((o) => user.roles.$post({ param: { id: seg(v.userId) }, json: { role: v.role } }, o)), [adminKeys.usersAll(), adminKeys.audit()]);
export const useRemoveRole = () =>
  useAdminMutation((v: { userId: string; role: Role }) => unwrap((o) => user.roles[':role'].$delete({ param: { id: seg(v.userId), role: v.role } }, o)), [adminKeys.usersAll(), adminKeys.audit()]);
export const useAdjustBalance = () =>
  useAdminMutation(
    (v: { userId: string; amountMicros: number; reason: string }) => unwrap((o) => user.balance.$post({ param: { id: seg(v.userId) }, json: { amountMicros: v.amountMicros, reason: v.reason } }, o)),
    [adminKeys.usersAll(), adminKeys.audit()],
  );
export const useSetApiAccess = () =>
  useAdminMutation((v: { userId: string; enabled: boolean }) => unwrap((o) => user['api-access'].$put({ param: { id: seg(v.userId) }, json: { enabled: v.enabled } }, o)), [
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
  useQuery({ queryKey: adminKeys.orders(q), queryFn: () => unwrap((o) => api.orders.$get({ query: ordersSearch(q) }, o)), placeholderData: keepPreviousData });
export const useOrder = (id: string | null) =>
  useQuery({ queryKey: adminKeys.order(id ?? ''), queryFn: () => unwrap((o) => api.orders[':id'].$get({ param: { id: seg(id ?? '') } }, o)), enabled: !!id });

const order = api.orders[':id'];
const orderKeys = (id: string) => [adminKeys.ordersAll(), adminKeys.order(id), adminKeys.dashboard(), adminKeys.audit(), adminKeys.usersAll()];
export const useResync = (id: string) => useAdminMutation(() => unwrap((o) => order.resync.$post({ param: { id: seg(id) } }, o)), orderKeys(id));
export const useRefund = (id: string) => useAdminMutation((v: { amountMicros?: number; reason: string }) => unwrap((o) => order.refund.$post({ param: { id: seg(id) }, json: v }, o)), orderKeys(id));
export const useResubmit = (id: string) => useAdminMutation(() => unwrap((o) => order.resubmit.$post({ param: { id: seg(id) } }, o)), orderKeys(id));
export const useAdminRefill = (id: string) => useAdminMutation(() => unwrap((o) => order.refill.$post({ param: { id: seg(id) } }, o)), orderKeys(id));
export const useAdminCancel = (id: string) => useAdminMutation(() => unwrap((o) => order.cancel.$post({ param: { id: seg(id) } }, o)), orderKeys(id));

// ─── Catalogue ─────────────────────────────────────────────────────────────────────────────

const catalog = api.catalog;
export const useLocalServices = () => useQuery({ queryKey: adminKeys.services(), queryFn: async () => (await unwrap((o) => catalog.services.$get({}, o))).services });
export const useSaveService = () =>
  useAdminMutation(
    (v: { id?: number; input: LocalServiceInput }) =>
      v.id ? unwrap((o) => catalog.services[':id'].$put({ param: { id: String(v.id) }, json: v.input }, o)) : unwrap((o) => catalog.services.$post({ json: v.input }, o)),
    [adminKeys.services(), adminKeys.dashboard(), adminKeys.audit()],
  );
export const useDeleteService = () =>
  useAdminMutation((id: number) => unwrap((o) => catalog.services[':id'].$delete({ param: { id: String(id) } }, o)), [adminKeys.services(), adminKeys.dashboard(), adminKeys.audit()]);

export const useApiServices = () => useQuery({ queryKey: adminKeys.apiServices(), queryFn: async () => (await unwrap((o) => catalog['api-services'].$get({}, o))).services });
export const useRefreshApiServices = () => useAdminMutation(() => unwrap((o) => catalog['api-services'].refresh.$post({}, o)), [adminKeys.apiServices(), adminKeys.audit()]);

export const useServiceNames = () => useQuery({ queryKey: adminKeys.serviceNames(), queryFn: async () => (await unwrap((o) => catalog['service-names'].$get({}, o))).names });
export const useSaveServiceName = () =>
  useAdminMutation(
    ({ original, input }: { original?: string; input: ServiceName }) =>
      original !== undefined
        ? unwrap((o) => catalog['service-names'][':name'].$put({ param: { name: seg(original) }, json: input }, o))
        : unwrap((o) => catalog['service-names'].$post({ json: input }, o)),
    [adminKeys.serviceNames(), adminKeys.audit()],
  );
export const useDeleteServiceName = () =>
  useAdminMutation((name: string) => unwrap((o) => catalog['service-names'][':name'].$delete({ param: { name: seg(name) } }, o)), [adminKeys.serviceNames(), adminKeys.audit()]);

export const useParamTexts = () => useQuery({ queryKey: adminKeys.paramTexts(), queryFn: async () => (await unwrap((o) => catalog['param-texts'].$get({}, o))).overrides });
/** Saves one kind's texts in one language; every text blank removes the override. */
export const useSaveParamTexts = () =>
  useAdminMutation((input: z.input<typeof paramTextOverrideInputSchema> & { lang: Language }) => unwrap((o) => catalog['param-texts'].$put({ json: input }, o)), [
    adminKeys.paramTexts(),
    adminKeys.audit(),
  ]);

// ─── Content ───────────────────────────────────────────────────────────────────────────────

const content = api.content;
export const useBlogPosts = () => useQuery({ queryKey: adminKeys.blog(), queryFn: async () => (await unwrap((o) => content.blog.$get({}, o))).posts });
export const useSaveBlogPost = () =>
  useAdminMutation(
    (v: { id?: number; input: BlogPostInput }) =>
      v.id ? unwrap((o) => content.blog[':id'].$put({ param: { id: String(v.id) }, json: v.input }, o)) : unwrap((o) => content.blog.$post({ json: v.input }, o)),
    [adminKeys.blog(), adminKeys.audit()],
  );
export const useDeleteBlogPost = () => useAdminMutation((id: number) => unwrap((o) => content.blog[':id'].$delete({ param: { id: String(id) } }, o)), [adminKeys.blog(), adminKeys.audit()]);

export const useFaqItems = () => useQuery({ queryKey: adminKeys.faq(), queryFn: async () => (await unwrap((o) => content.faq.$get({}, o))).items });
export const useSaveFaqItem = () =>
  useAdminMutation(
    (v: { id?: number; input: FaqInput }) => (v.id ? unwrap((o) => content.faq[':id'].$put({ param: { id: String(v.id) }, json: v.input }, o)) : unwrap((o) => content.faq.$post({ json: v.input }, o))),
    [adminKeys.faq(), adminKeys.audit()],
  );
export const useDeleteFaqItem = () => useAdminMutation((id: number) => unwrap((o) => content.faq[':id'].$delete({ param: { id: String(id) } }, o)), [adminKeys.faq(), adminKeys.audit()]);

// ─── Providers ─────────────────────────────────────────────────────────────────────────────

export const useProviders = () => useQuery({ queryKey: adminKeys.providers(), queryFn: async () => (await unwrap((o) => api.providers.$get({}, o))).providers });
export const useSaveProvider = () =>
  useAdminMutation(
    (v: { id: string; input: ProviderUpdate } | { id?: undefined; input: ProviderInput }) =>
      v.id ? unwrap((o) => api.providers[':id'].$put({ param: { id: seg(v.id) }, json: v.input }, o)) : unwrap((o) => api.providers.$post({ json: v.input as ProviderInput }, o)),
    [adminKeys.providers(), adminKeys.audit()],
  );
export const useTestProvider = () => useAdminMutation((id: string) => unwrap((o) => api.providers[':id'].test.$post({ param: { id: seg(id) } }, o)), [adminKeys.providers(), adminKeys.audit()]);

// ─── Provider catalogues ───────────────────────────────────────────────────────────────────

/** What a change to the shop's catalogue refreshes: every list of services, sources and changes. */
const catalogueKeys = () => [adminKeys.apiServices(), adminKeys.providerServicesAll(), adminKeys.changesAll(), [...adminKeys.all, 'service-sources'], adminKeys.audit()];

export const useProviderServices = (id: string) =>
  useQuery({ queryKey: adminKeys.providerServices(id), queryFn: async () => (await unwrap((o) => api.providers[':id'].services.$get({ param: { id: seg(id) }, query: {} }, o))).services });
export const useReadCatalogue = () => useAdminMutation((id: string) => unwrap((o) => api.providers[':id'].catalogue.$post({ param: { id: seg(id) } }, o)), catalogueKeys());

export const useCatalogChanges = (all: boolean) =>
  useQuery({ queryKey: adminKeys.changes(all), queryFn: async () => (await unwrap((o) => catalog.changes.$get({ query: all ? { all: '1' } : {} }, o))).changes, placeholderData: keepPreviousData });
export const useDecideChange = () =>
  useAdminMutation(
    (v: { id: number; decision: 'applied' | 'dismissed'; markup?: { percent: string; fixedPer1000: string } }) =>
      unwrap((o) => catalog.changes[':id'].$post({ param: { id: String(v.id) }, json: { decision: v.decision, ...(v.markup ? { markup: v.markup } : {}) } }, o)),
    catalogueKeys(),
  );

/** What an import would sell each service for, at the site's fees; `null` asks nothing (the markup is not valid yet). */
export const useImportPreview = (input: CatalogImportInput | null) =>
  useQuery({
    queryKey: adminKeys.importPreview(input ?? { providerId: '', markup: {} }),
    queryFn: async () => (await unwrap((o) => catalog.import.preview.$post({ json: input! }, o))).lines,
    enabled: input !== null,
    placeholderData: keepPreviousData,
  });
export const useImportServices = () => useAdminMutation((input: CatalogImportInput) => unwrap((o) => catalog.import.$post({ json: input }, o)), catalogueKeys());

export const useServiceSources = (id: string) =>
  useQuery({ queryKey: adminKeys.serviceSources(id), queryFn: () => unwrap((o) => catalog.services[':id'].sources.$get({ param: { id: seg(id) } }, o)) });
export const useSaveServiceSources = () =>
  useAdminMutation((v: { id: string; input: ServiceSourcesInput }) => unwrap((o) => catalog.services[':id'].sources.$put({ param: { id: seg(v.id) }, json: v.input }, o)), catalogueKeys());

// ─── Settings and audit ────────────────────────────────────────────────────────────────────

export const useSettings = () => useQuery({ queryKey: adminKeys.settings(), queryFn: () => unwrap((o) => api.settings.$get({}, o)) });
export const useSettingsStats = () => useQuery({ queryKey: adminKeys.stats(), queryFn: () => unwrap((o) => api.settings.stats.$get({}, o)) });
export const usePaymentMethodsAdmin = () =>
  useQuery({ queryKey: adminKeys.paymentMethods(), queryFn: async () => (await unwrap((o) => api.payments.methods.$get({}, o))).methods });
export const useSavePaymentMethod = () =>
  useAdminMutation(
    ({ kind, input }: { kind: PaymentMethodKind; input: PaymentMethodInput }) => unwrap((o) => api.payments.methods[':kind'].$put({ param: { kind }, json: input }, o)),
    [adminKeys.paymentMethods(), adminKeys.audit()],
  );
export const useSaveSettings = () => useAdminMutation((changes: Partial<Settings>) => unwrap((o) => api.settings.$put({ json: changes }, o)), [adminKeys.settings(), adminKeys.audit()]);

/** A page of the audit log with its filters (each set one sent as text). */
export const useAudit = (q: AuditQuery) =>
  useQuery({
    queryKey: adminKeys.auditPage(q),
    queryFn: () => unwrap((o) => api.audit.$get({ query: Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined && v !== '').map(([k, v]) => [k, String(v)])) }, o)),
    placeholderData: keepPreviousData,
  });

// ─── Customer discounts and groups ─────────────────────────────────────────────────────────

export type CustomerGroup = InferResponseType<(typeof api)['customer-groups']['$get']>['groups'][number];
const groupKeys = () => [...adminKeys.all, 'customer-groups'] as const;
const groups = api['customer-groups'];
export const useCustomerGroups = () => useQuery({ queryKey: groupKeys(), queryFn: async () => (await unwrap((o) => groups.$get({}, o))).groups });
export const useCreateGroup = () => useAdminMutation((input: CustomerGroupInput) => unwrap((o) => groups.$post({ json: input }, o)), [groupKeys(), adminKeys.audit()]);
export const useUpdateGroup = () =>
  useAdminMutation((v: { id: string; input: CustomerGroupInput }) => unwrap((o) => groups[':id'].$put({ param: { id: seg(v.id) }, json: v.input }, o)), [groupKeys(), adminKeys.audit()]);
export const useDeleteGroup = () =>
  useAdminMutation((v: { id: string }) => unwrap((o) => groups[':id'].$delete({ param: { id: seg(v.id) } }, o)), [groupKeys(), adminKeys.usersAll(), adminKeys.audit()]);
export const useSetCustomerPricing = () =>
  useAdminMutation((v: { userId: string; input: CustomerPricingInput }) => unwrap((o) => user.pricing.$put({ param: { id: seg(v.userId) }, json: v.input }, o)), [
    adminKeys.usersAll(),
    groupKeys(),
    adminKeys.audit(),
  ]);

// ─── Analytics (docs/rules.md#owner-figures) ──────────────────────────────────────────────

export type AnalyticsData = InferResponseType<typeof api.analytics.$get>;
export type AnalyticsBreakdown = InferResponseType<typeof api.analytics.breakdown.$get>;
/** The page's query as the address carries it (yyyy-mm-dd days, only with a custom period). */
export type AnalyticsSearch = { period: AnalyticsPeriod; group: AnalyticsGroup; from?: string; to?: string };

const analyticsParams = (q: AnalyticsSearch): Record<string, string> => ({
  period: q.period,
  group: q.group,
  ...(q.period === 'custom' && q.from ? { from: q.from } : {}),
  ...(q.period === 'custom' && q.to ? { to: q.to } : {}),
});

export const useAnalytics = (q: AnalyticsSearch) =>
  useQuery({ queryKey: [...adminKeys.all, 'analytics', q], queryFn: () => unwrap((o) => api.analytics.$get({ query: analyticsParams(q) }, o)), placeholderData: keepPreviousData, retry: false });
export const useAnalyticsBreakdown = (q: AnalyticsSearch, by: Breakdown) =>
  useQuery({
    queryKey: [...adminKeys.all, 'analytics-breakdown', by, q],
    queryFn: () => unwrap((o) => api.analytics.breakdown.$get({ query: { ...analyticsParams(q), by } }, o)),
    placeholderData: keepPreviousData,
    retry: false,
  });
/** The address of a table's CSV export. */
export const analyticsExportUrl = (q: AnalyticsSearch, table: AnalyticsTable) => `/api/admin/analytics/export?${new URLSearchParams({ ...analyticsParams(q), table })}`;

// ─── Payments ──────────────────────────────────────────────────────────────────────────────

/** The payments list's filters, as the page's address carries them (docs/rules.md#payments). */
export type PaymentsQuery = Partial<Record<'status' | 'method' | 'q' | 'userId' | 'from' | 'to' | 'flagged' | 'page', string>>;
export type PaymentsPage = InferResponseType<typeof api.payments.$get>;
export type AdminPayment = PaymentsPage['payments'][number];

export const paymentKeys = {
  all: () => [...adminKeys.all, 'payments'] as const,
  list: (q: PaymentsQuery) => [...paymentKeys.all(), q] as const,
};

/** The filters that are set (an empty one is left out), as the list's and the export's query. */
export function paymentsSearch(q: PaymentsQuery): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [k, v] of Object.entries(q)) if (v) params[k] = v;
  return params;
}

export const usePayments = (q: PaymentsQuery) =>
  useQuery({
    queryKey: paymentKeys.list(q),
    queryFn: () => unwrap((o) => api.payments.$get({ query: paymentsSearch(q) as never }, o)),
    placeholderData: keepPreviousData,
  });
/** Where the CSV of the filtered list is downloaded from (every page). */
export const paymentsExportUrl = (q: PaymentsQuery) => {
  const { page: _page, ...filters } = q;
  const search = new URLSearchParams(paymentsSearch(filters)).toString();
  return `/api/admin/payments/export${search ? `?${search}` : ''}`;
};
/** Books a chargeback of a completed top-up (docs/decisions/0019). */
export const useReviewTransfer = () =>
  useAdminMutation(
    (v: { paymentId: string; review: { approve: true } | { approve: false; reason: string } }) =>
      unwrap((o) => api.payments[':id'].review.$post({ param: { id: seg(v.paymentId) }, json: v.review }, o)),
    [paymentKeys.all(), adminKeys.usersAll(), adminKeys.dashboard(), adminKeys.audit()],
  );
/** A top-up refunded to the card (docs/rules.md#top-up-refunds): 200 refunded, 202 waiting for the gateway's answer. */
export const useRefundPayment = () =>
  useAdminMutation(
    (v: { paymentId: string; reason: string }) => unwrap((o) => api.payments[':id'].refund.$post({ param: { id: seg(v.paymentId) }, json: { reason: v.reason } }, o)),
    [paymentKeys.all(), adminKeys.usersAll(), adminKeys.dashboard(), adminKeys.audit()],
  );

export const useReversePayment = () =>
  useAdminMutation(
    (v: { paymentId: string; reason: string }) => unwrap((o) => api.payments[':id'].reversal.$post({ param: { id: seg(v.paymentId) }, json: { reason: v.reason } }, o)),
    [paymentKeys.all(), adminKeys.usersAll(), adminKeys.dashboard(), adminKeys.audit()],
  );

// ─── Deposit bonuses and coupons (docs/rules.md#bonuses) ─────────────────────────────────────

export type StaffBonusesData = InferResponseType<typeof api.bonuses.$get>;
export type BonusRuleRow = StaffBonusesData['rules'][number];
export type CouponRow = StaffBonusesData['coupons'][number];
export type { BonusRuleInput, CouponInput };
const bonusKeys = () => [...adminKeys.all, 'bonuses'] as const;
const bonuses = api.bonuses;
export const useBonuses = () => useQuery({ queryKey: bonusKeys(), queryFn: () => unwrap((o) => bonuses.$get({}, o)) });
export const useCreateBonusRule = () => useAdminMutation((input: BonusRuleInput) => unwrap((o) => bonuses.rules.$post({ json: input }, o)), [bonusKeys(), adminKeys.audit()]);
export const useUpdateBonusRule = () =>
  useAdminMutation((v: { id: number; input: BonusRuleInput }) => unwrap((o) => bonuses.rules[':id'].$put({ param: { id: String(v.id) }, json: v.input }, o)), [bonusKeys(), adminKeys.audit()]);
export const useCreateCoupon = () => useAdminMutation((input: CouponInput) => unwrap((o) => bonuses.coupons.$post({ json: input }, o)), [bonusKeys(), adminKeys.audit()]);
export const useUpdateCoupon = () =>
  useAdminMutation((v: { id: number; input: CouponInput }) => unwrap((o) => bonuses.coupons[':id'].$put({ param: { id: String(v.id) }, json: v.input }, o)), [bonusKeys(), adminKeys.audit()]);
