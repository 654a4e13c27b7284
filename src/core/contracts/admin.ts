import { z } from 'zod';
import { LANGUAGES } from '../i18n';
import { isOnStep, SETTING_STEPS, settingsSchema, type NumericSettingKey } from '../settings';
import { markupSchema } from '../catalog';
import { PAYMENT_STATUSES } from './payments';
import { roleSchema } from './account';
import { orderIdSchema } from './orders';

export { orderIdSchema, roleSchema };

// Every body an admin sends is a strict object: an unknown field is refused (422), not ignored.

export const roleInputSchema = z.strictObject({ role: roleSchema });

/**
 * A balance adjustment: signed USD micro-dollars (any micro, so a staff member can set a balance
 * to the micro; at most 1 000 000 USD either way), with a reason that goes into the ledger and the
 * audit log.
 */
export const balanceAdjustmentSchema = z.strictObject({
  amountMicros: z.number().int().refine((n) => n !== 0, 'zero').refine((n) => Math.abs(n) <= 1_000_000_000_000, 'too large'),
  reason: z.string().trim().min(3).max(500),
});

const localized = (max: number, min = 1) =>
  z.strictObject({ az: z.string().trim().min(min).max(max), tr: z.string().trim().min(min).max(max), en: z.string().trim().min(min).max(max) });

/**
 * Local marketing service: texts in az, tr and en (a name in each; description, details and
 * benefits — one a line — may be blank), price in AZN with 2 decimals, sent as qəpik. Fields
 * outside the form are refused.
 */
export const localServiceInputSchema = z
  .object({
    name: localized(200).strict(),
    description: localized(1000, 0).strict().default({ az: '', tr: '', en: '' }),
    details: localized(5000, 0).strict().default({ az: '', tr: '', en: '' }),
    benefits: localized(2000, 0).strict().default({ az: '', tr: '', en: '' }),
    priceQepik: z.number().int().min(0).max(1_000_000_000).nullable().default(null),
    category: z.enum(['standard', 'social_media']).default('social_media'),
    platform: z.string().trim().max(50).nullable().default(null),
    icon: z.string().trim().max(50).nullable().default(null),
    active: z.boolean().default(true),
    orderIndex: z.number().int().min(-100_000).max(100_000).default(0),
  })
  .strict();
export type LocalServiceInput = z.infer<typeof localServiceInputSchema>;

/**
 * Service name form (docs/rules.md#catalogue): API name (the words of provider names to translate,
 * runs of spaces read as one, as the rule matches them), Azerbaijani and Turkish names, all
 * required and trimmed; optionally the one service the names apply to (null: every service whose
 * name has the words).
 */
export const serviceNameInputSchema = z.strictObject({
  apiServiceName: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .transform((v) => v.replace(/\s+/gu, ' ')),
  az: z.string().trim().min(1).max(200),
  tr: z.string().trim().min(1).max(200),
  serviceId: z.string().trim().regex(/^[\w-]{1,64}$/).nullable().default(null),
});
export type ServiceNameInput = z.output<typeof serviceNameInputSchema>;

/** One override text: trimmed; blank means "keep the storefront's own text". */
const overrideText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullable()
    .default(null)
    .transform((v) => v || null);

/**
 * An admin's wording of one param kind in one language (src/core/paramTexts.ts): `kind` is a
 * known kind or an unknown field name's key; every text left blank keeps the default, and an
 * override with no text at all is removed.
 */
export const paramTextOverrideInputSchema = z
  .object({
    kind: z.string().regex(/^[a-z0-9][a-z0-9_]{0,63}$/),
    lang: z.enum(LANGUAGES),
    label: overrideText(100),
    hint: overrideText(500),
    placeholder: overrideText(500),
    required: overrideText(200),
    invalid: overrideText(200),
  })
  .strict();
export type ParamTextOverrideInput = z.infer<typeof paramTextOverrideInputSchema>;

/** A change of settings: known keys only, each numeric one on its step (`SETTING_STEPS`), refused as `offStep` with the step. */
export const settingsInputSchema = settingsSchema
  .partial()
  .strict()
  .superRefine((input, ctx) => {
    for (const [key, step] of Object.entries(SETTING_STEPS) as [NumericSettingKey, string][]) {
      const value = input[key];
      if (value !== undefined && !isOnStep(value, step)) ctx.addIssue({ code: 'custom', path: [key], message: 'offStep', params: { step } });
    }
  });


export const blogPostInputSchema = z.strictObject({
  slug: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/)
    .max(120),
  title: localized(200),
  excerpt: localized(500, 0),
  body: localized(50_000),
  published: z.boolean().default(false),
  publishedOn: z.iso.date(),
});
export type BlogPostInput = z.infer<typeof blogPostInputSchema>;

export const faqInputSchema = z.strictObject({
  question: localized(500),
  answer: localized(5000),
  orderIndex: z.number().int().min(-100_000).max(100_000).default(0),
  published: z.boolean().default(true),
});
export type FaqInput = z.infer<typeof faqInputSchema>;

export const orderRefundSchema = z.strictObject({
  /** USD micro-dollars to refund; the whole remaining charge when missing. */
  amountMicros: z.number().int().positive().optional(),
  reason: z.string().trim().min(3).max(500),
});

export const adminOrdersQuerySchema = z.object({
  q: z.string().trim().max(200).optional(),
  status: z.string().max(30).optional(),
  platform: z.string().max(50).optional(),
  from: z.iso.date().optional(),
  to: z.iso.date().optional(),
  /** Only the orders delayed at the provider (docs/rules.md#delayed-orders). */
  delayed: z.enum(['1']).optional(),
  /** Only the orders waiting for a provider with funds (docs/rules.md#provider-funds). */
  funds: z.enum(['1']).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});
export type AdminOrdersQuery = z.output<typeof adminOrdersQuerySchema>;

// Path parameters of the admin routes.

/** A row id in an address: a positive whole number. */
export const numericIdParamsSchema = z.strictObject({ id: z.coerce.number().int().positive() });
export const orderIdParamsSchema = z.strictObject({ id: orderIdSchema });
export const userIdParamsSchema = z.strictObject({ id: z.string() });
export const userRoleParamsSchema = z.strictObject({ id: z.string(), role: roleSchema });
/**
 * Removing another account's second factor (docs/rules.md#second-factor): why the team does it
 * (required, 1–500 characters after trimming; kept in the audit log, never mailed).
 */
export const secondFactorResetSchema = z.strictObject({ reason: z.string().trim().min(1).max(500) });
export const serviceNameParamsSchema = z.strictObject({ name: z.string() });
export const paramTextParamsSchema = z.strictObject({ kind: z.string(), lang: z.enum(LANGUAGES) });

/** The admin's user search: words in the e-mail or name (trimmed, at most 200 characters). */
export const adminUsersQuerySchema = z.object({ q: z.string().optional().transform((q) => (q ?? '').trim().slice(0, 200)) });
/** What the payments list filters a status by: a payment's status, or `reversed` (completed, then taken back by a chargeback). */
export const ADMIN_PAYMENT_STATUS_FILTERS = [...PAYMENT_STATUSES, 'reversed'] as const;
/**
 * The payments list (docs/rules.md#payments), read from the page's address so a link can open it
 * filtered: `status`, `method` (the card gateway), `q` (words of the customer's e-mail), `userId`
 * (one customer, their user page), `from` and `to` (days, UTC, both included), `flagged=1` (only
 * the flagged ones; `true` is read alike), `page`. Anything else is refused.
 */
export const adminPaymentsQuerySchema = z
  .strictObject({
    status: z.enum(ADMIN_PAYMENT_STATUS_FILTERS).optional(),
    method: z.string().regex(/^[\w-]{1,40}$/).optional(),
    q: z.string().trim().max(200).optional(),
    userId: z.string().min(1).max(100).optional(),
    from: z.iso.date().optional(),
    to: z.iso.date().optional(),
    flagged: z.enum(['1', 'true']).optional(),
    page: z.coerce.number().int().min(1).max(10_000).default(1),
  })
  .refine((v) => !v.from || !v.to || v.from <= v.to, { message: 'from is after to', path: ['to'] });
export type AdminPaymentsQuery = z.output<typeof adminPaymentsQuerySchema>;
/** A payment's id in an address. */
export const paymentIdParamsSchema = z.strictObject({ id: orderIdSchema });
/** A chargeback booked by the team: why the bank took the top-up back (required; in the ledger and the audit log). */
export const paymentReversalSchema = z.strictObject({ reason: z.string().trim().min(3).max(500) });
/** A refund of a top-up to the card asked by the team (docs/rules.md#top-up-refunds): why (required; in the ledger and the audit log). */
export const paymentRefundSchema = z.strictObject({ reason: z.string().trim().min(3).max(500) });
/** The team's review of a bank transfer: approved, or rejected with the reason the customer is told. */
export const bankReviewSchema = z.discriminatedUnion('approve', [
  z.strictObject({ approve: z.literal(true) }),
  z.strictObject({ approve: z.literal(false), reason: z.string().trim().min(3).max(500) }),
]);

// SMM providers (docs/decisions/0016). The key is write-only: sent when added or replaced, and
// answered only as its last four characters.
export const PROVIDER_PROTOCOL_OPTIONS = ['qqtube', 'smm-v2'] as const;
const providerUrlSchema = z
  .url({ protocol: /^https?$/ })
  .max(500);
const providerFields = {
  name: z.string().trim().min(1).max(80),
  protocol: z.enum(PROVIDER_PROTOCOL_OPTIONS),
  url: providerUrlSchema,
  key: z.string().trim().min(1).max(500),
  callsPerSecond: z.number().int().min(0).max(1000),
  enabled: z.boolean(),
};
export const providerInputSchema = z.strictObject({ ...providerFields, callsPerSecond: providerFields.callsPerSecond.default(0), enabled: providerFields.enabled.default(true) });
export const providerUpdateSchema = z
  .strictObject({ ...providerFields })
  .partial()
  .refine((v) => Object.keys(v).length > 0, { message: 'Nothing to change' });
export const providerIdParamsSchema = z.strictObject({ id: orderIdSchema });

export interface ProviderView {
  id: string;
  name: string;
  protocol: (typeof PROVIDER_PROTOCOL_OPTIONS)[number];
  url: string;
  /** The key as the admin sees it once saved: "••••" and its last four characters. */
  keyHint: string;
  callsPerSecond: number;
  enabled: boolean;
  /** The provider the environment's PROVIDER* variables created. */
  fromEnv: boolean;
  /**
   * A further provider the process describes at each start (`sandbox-2`: the sandbox's second
   * provider); like `fromEnv`, its protocol, address and key are not edited; null for the team's.
   */
  envSlot: string | null;
  /** Whose catalogue the shop's services are (new orders go to it). */
  isDefault: boolean;
  balance: { amount: string; currency: string; at: string } | null;
  createdAt: string;
  updatedAt: string;
}

export interface ProviderTestResult {
  ok: boolean;
  balance: { amount: string; currency: string; at: string } | null;
  error: string | null;
}

// Provider catalogues (rules in src/server/catalog/sources.ts): each provider's services as last read, the changes the
// team approves, importing provider services as the shop's own with a markup, each service's sources.

/** A provider's own service id, as its catalogue lists it. */
const providerServiceIdSchema = z.string().trim().min(1).max(64);
/** The shop's own service id (in an address). */
export const catalogServiceIdParamsSchema = z.strictObject({ id: z.string().regex(/^[\w-]{1,64}$/) });

/** The import screen's filter of a provider's services: platform, type, words of the name or an id. */
export const providerServicesQuerySchema = z.strictObject({
  platform: z.string().trim().max(50).optional(),
  type: z.string().trim().max(100).optional(),
  q: z.string().trim().max(200).optional(),
});

/** The changes list: the open ones, or every one with `all=1`. */
export const catalogChangesQuerySchema = z.strictObject({ all: z.enum(['0', '1']).optional() });

/** The team's answer to a change; `markup` prices a new service imported by applying it. */
export const changeDecisionSchema = z.strictObject({ decision: z.enum(['applied', 'dismissed']), markup: markupSchema.optional() });

/** Which provider services to import (some by id, or a whole platform + type) and with which markup. */
export const catalogImportSchema = z
  .strictObject({
    providerId: orderIdSchema,
    serviceIds: z.array(providerServiceIdSchema).min(1).max(5000).optional(),
    category: z.strictObject({ platform: z.string().trim().min(1).max(50), type: z.string().trim().min(1).max(100) }).optional(),
    markup: markupSchema,
  })
  .refine((v) => (v.serviceIds === undefined) !== (v.category === undefined), { message: 'Choose services or a category', path: ['serviceIds'] });
export type CatalogImportInput = z.input<typeof catalogImportSchema>;

/** A service's sources in the order tried (each provider once), and optionally its markup. */
export const serviceSourcesInputSchema = z.strictObject({
  sources: z
    .array(z.strictObject({ providerId: orderIdSchema, providerServiceId: providerServiceIdSchema }))
    .min(1)
    .max(20)
    .refine((list) => new Set(list.map((s) => s.providerId)).size === list.length, { message: 'Each provider at most once' }),
  markup: markupSchema.optional(),
});
export type ServiceSourcesInput = z.input<typeof serviceSourcesInputSchema>;

// The audit log (docs/rules.md#admin): filters of the team's list, read from and written to the
// page's address.

/** An action as the audit log stores it: `balance.adjust`, `service-name.create`. */
export const auditActionSchema = z.string().regex(/^[a-z][a-z0-9_.-]{0,63}$/);
/** The audit log's filters: who acted (a user id), one action, a range of days (UTC, both included), the page; `lang` names targets in the reader's language. */
export const adminAuditQuerySchema = z
  .strictObject({
    actor: z.string().trim().min(1).max(100).optional(),
    action: auditActionSchema.optional(),
    from: z.iso.date().optional(),
    to: z.iso.date().optional(),
    page: z.coerce.number().int().min(1).max(10_000).default(1),
    lang: z.enum(LANGUAGES).optional(),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: 'The range ends before it starts', path: ['to'] });
export type AdminAuditQuery = z.output<typeof adminAuditQuerySchema>;
