import { asc, eq, sql } from 'drizzle-orm';
import type { PaymentMethodInput, PaymentMethodView, StaffPaymentMethod } from '../../core/contracts/payments';
import { AppError } from '../../core/errors';
import { KIND_CURRENCIES, PAYMENT_METHOD_KINDS, RATE_SETTING, type PaymentMethodKind } from '../../core/paymentMethods';
import type { Settings } from '../../core/settings';
import type { Db, Tx } from '../db/client';
import { paymentMethods } from '../db/schema';
import type { GatewayRegistry } from '../gateways';
import { getSettings } from '../settings';

export type PaymentMethodRow = typeof paymentMethods.$inferSelect;

/** Each kind's row as it is first written: names in the three languages, the currency, the usual bounds. */
const FIRST_ROWS: Record<PaymentMethodKind, Omit<typeof paymentMethods.$inferInsert, 'enabled'>> = {
  epoint: { kind: 'epoint', name: { az: 'Bank kartı', tr: 'Banka kartı', en: 'Bank card' }, currency: 'AZN', minMicros: 1_000_000, maxMicros: 10_000_000_000, position: 0 },
  payriff: {
    kind: 'payriff',
    name: { az: 'Payriff: kart, Apple Pay, Google Pay', tr: 'Payriff: kart, Apple Pay, Google Pay', en: 'Payriff: card, Apple Pay, Google Pay' },
    currency: 'AZN',
    minMicros: 1_000_000,
    maxMicros: 10_000_000_000,
    position: 1,
  },
  paytr: {
    kind: 'paytr',
    name: { az: 'PayTR: Türkiyə kartı, EFT (TRY)', tr: 'PayTR: kart, EFT (TL)', en: 'PayTR: Turkish card, EFT (TRY)' },
    currency: 'TRY',
    minMicros: 1_000_000,
    maxMicros: 10_000_000_000,
    position: 2,
  },
  bank: { kind: 'bank', name: { az: 'Bank köçürməsi', tr: 'Banka havalesi', en: 'Bank transfer' }, currency: 'AZN', minMicros: 10_000_000, maxMicros: 10_000_000_000, position: 3 },
};

const DEMO_ACCOUNT = 'IBAN AZ00 DEMO 0000 0000 0000 0000 0000 · SWIFT DEMOAZ22';
const DEMO_BANK_DETAILS = {
  az: `Nümunə Bank (sandbox)\n${DEMO_ACCOUNT}\nAlıcı: Artım MMC`,
  tr: `Örnek Banka (sandbox)\n${DEMO_ACCOUNT}\nAlıcı: Artım MMC`,
  en: `Example Bank (sandbox)\n${DEMO_ACCOUNT}\nRecipient: Artım LLC`,
};

/**
 * Writes the row of every kind that has none (a fresh database, or a kind added since): on for the
 * kinds in `enable` (the sandboxes of `npm start`), off otherwise, for the team to turn on once its
 * keys are set. A row that exists is left as the team set it.
 */
export async function ensurePaymentMethods(db: Db, enable: readonly PaymentMethodKind[]): Promise<void> {
  const rows = PAYMENT_METHOD_KINDS.map((kind) => ({
    ...FIRST_ROWS[kind],
    enabled: enable.includes(kind),
    // A bank transfer turned on at once (the sandbox shop) shows a demonstration account; the team writes its own before turning it on.
    ...(kind === 'bank' && enable.includes('bank') ? { details: DEMO_BANK_DETAILS } : {}),
  }));
  await db.insert(paymentMethods).values(rows).onConflictDoNothing({ target: paymentMethods.kind });
}

/** Whether customers can pay through a method: on, and (but for a bank transfer) its gateway configured. */
const usable = (row: PaymentMethodRow, gateways: GatewayRegistry) => row.enabled && (row.kind === 'bank' || gateways.has(row.kind));

/** The rate in force for a currency, as decimal text. */
export const rateOf = (settings: Settings, currency: PaymentMethodRow['currency']): string => String(settings[RATE_SETTING[currency]]);

const toView = (row: PaymentMethodRow, settings: Settings): PaymentMethodView => ({
  kind: row.kind,
  name: row.name,
  currency: row.currency,
  rate: rateOf(settings, row.currency),
  minMicros: row.minMicros,
  maxMicros: row.maxMicros,
  feeBp: row.feeBp,
});

/** The methods a customer may pay through now, in the team's order. */
export async function availableMethods(db: Db, gateways: GatewayRegistry): Promise<PaymentMethodView[]> {
  const [rows, settings] = await Promise.all([db.select().from(paymentMethods).orderBy(asc(paymentMethods.position), asc(paymentMethods.kind)), getSettings(db)]);
  return rows.filter((r) => usable(r, gateways)).map((r) => toView(r, settings));
}

/** The method a top-up asks for, when customers may use it now; PAYMENT_METHOD_UNAVAILABLE otherwise. */
export async function usableMethod(db: Db, gateways: GatewayRegistry, kind: PaymentMethodKind): Promise<PaymentMethodRow> {
  const [row] = await db.select().from(paymentMethods).where(eq(paymentMethods.kind, kind));
  if (!row || !usable(row, gateways)) throw new AppError('PAYMENT_METHOD_UNAVAILABLE', 'Bu ödəniş üsulu hazırda əlçatan deyil', { method: kind });
  return row;
}

const toStaff = (row: PaymentMethodRow, gateways: GatewayRegistry): StaffPaymentMethod => ({
  kind: row.kind,
  name: row.name,
  details: row.details,
  currency: row.currency,
  minMicros: row.minMicros,
  maxMicros: row.maxMicros,
  feeBp: row.feeBp,
  position: row.position,
  enabled: row.enabled,
  currencies: [...KIND_CURRENCIES[row.kind]],
  configured: row.kind === 'bank' || gateways.has(row.kind),
});

/** Every method as the team sets it, in the dialog's order. */
export async function staffMethods(db: Db, gateways: GatewayRegistry): Promise<StaffPaymentMethod[]> {
  const rows = await db.select().from(paymentMethods).orderBy(asc(paymentMethods.position), asc(paymentMethods.kind));
  return rows.map((r) => toStaff(r, gateways));
}

/**
 * The team changes a method (in the caller's transaction, for the audit log): a currency its kind
 * cannot charge in is refused. Returns the row before and after.
 */
export async function updateMethod(tx: Tx, kind: PaymentMethodKind, input: PaymentMethodInput): Promise<{ before: PaymentMethodRow; after: PaymentMethodRow }> {
  if (!KIND_CURRENCIES[kind].includes(input.currency)) {
    throw new AppError('VALIDATION_FAILED', 'This method cannot charge in that currency.', { issues: [{ path: 'currency', code: 'unsupported' }] });
  }
  const [before] = await tx.select().from(paymentMethods).where(eq(paymentMethods.kind, kind)).for('update');
  if (!before) throw new AppError('NOT_FOUND', 'No such payment method.');
  const [after] = await tx
    .update(paymentMethods)
    .set({ ...input, updatedAt: sql`now()` })
    .where(eq(paymentMethods.kind, kind))
    .returning();
  return { before, after: after! };
}
