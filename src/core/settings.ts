import Big from 'big.js';
import { z } from 'zod';

/**
 * Site settings (docs/rules.md#settings). Stored as key/value rows in `admin_settings`;
 * numeric values that do not parse become 0.
 */
const numeric = z.preprocess((v) => {
  const n = typeof v === 'number' ? v : Number(String(v ?? '').trim());
  return Number.isFinite(n) ? n : 0;
}, z.number());

const boolish = z.preprocess((v) => v === true || v === 'true' || v === '1' || v === 1, z.boolean());
const text = z.preprocess((v) => (v == null ? '' : String(v)), z.string().max(500));

export const settingsSchema = z.object({
  site_name: text,
  site_description: text,
  contact_email: text,
  contact_phone: text,
  maintenance_mode: boolish,
  allow_registration: boolish,
  /** USD given to each new account, e.g. 0 or 1.5. */
  default_balance: numeric.pipe(z.number().min(0)),
  notification_email: text,
  /** Percent added to every price, 0–100. */
  service_fee: numeric.pipe(z.number().min(0).max(100)),
  /** USD added to every order. */
  base_fee: numeric.pipe(z.number().min(0)),
  /** AZN per USD for card top-ups. */
  usd_azn_rate: numeric.pipe(z.number().positive()),
  /** TRY per USD for top-ups charged in lira (docs/rules.md#payment-methods). */
  usd_try_rate: numeric.pipe(z.number().positive()),
  /** Delayed orders (docs/rules.md#delayed-orders): the shortest wait, in minutes, before an order with no progress counts as delayed. */
  stuck_floor_minutes: numeric.pipe(z.number().int().min(1).max(10_080)),
  /** The wait, in minutes, for a service with too few finished orders to know its usual start. */
  stuck_default_minutes: numeric.pipe(z.number().int().min(1).max(43_200)),
  /** Hours after it was sent that a delayed order is cancelled at the provider; 0: never. */
  stuck_cancel_after_hours: numeric.pipe(z.number().int().min(0).max(720)),
  /** Providers' money (docs/rules.md#provider-funds): a provider's balance below this many USD is shown on the dashboard. */
  provider_low_balance: numeric.pipe(z.number().min(0)),
  /** Hours an order waits for a provider with money before it is refunded. */
  provider_funds_wait_hours: numeric.pipe(z.number().int().min(1).max(720)),
});

export type Settings = z.infer<typeof settingsSchema>;

/**
 * The step of each numeric setting as the team types it (docs/rules.md#settings): a value must be a
 * whole number of steps, counted from 0 — a tenth of a percent, a cent, a ten-thousandth of a
 * manat, whole minutes and hours. The admin form offers them, and a change off its step is refused
 * (`settingsInputSchema`, src/core/contracts/admin.ts); stored values are read as they are.
 */
export const SETTING_STEPS = {
  service_fee: '0.1',
  base_fee: '0.01',
  default_balance: '0.01',
  usd_azn_rate: '0.0001',
  usd_try_rate: '0.0001',
  stuck_floor_minutes: '1',
  stuck_default_minutes: '1',
  stuck_cancel_after_hours: '1',
  provider_low_balance: '0.01',
  provider_funds_wait_hours: '1',
} as const satisfies Partial<Record<keyof Settings, string>>;
export type NumericSettingKey = keyof typeof SETTING_STEPS;

/** Whether `value` is a whole number of `step`s (exact decimals: 12.5 is on 0.1, 12.55 is not). */
export function isOnStep(value: number, step: string): boolean {
  if (!Number.isFinite(value)) return false;
  return new Big(String(value)).mod(step).eq(0);
}

/** The two values on `step` around one that is not, as decimal text: 12.55 on 0.1 → ['12.5', '12.6']. */
export function stepsAround(value: number, step: string): [string, string] {
  const below = new Big(String(value)).div(step).round(0, Big.roundDown).times(step);
  return [below.toString(), below.plus(step).toString()];
}
export type SettingKey = keyof Settings;
export const SETTING_KEYS = Object.keys(settingsSchema.shape) as SettingKey[];

import { DEFAULT_SETTINGS as DEFAULTS, PUBLIC_SETTING_KEYS } from './settingsDefaults';

export const DEFAULT_SETTINGS: Settings = DEFAULTS;
export { PUBLIC_SETTING_KEYS };
export type PublicSettings = Pick<Settings, (typeof PUBLIC_SETTING_KEYS)[number]>;

/** Builds settings from stored rows; unknown keys are ignored, missing ones take the defaults. */
export function settingsFromRows(rows: { key: string; value: string }[]): Settings {
  const raw: Record<string, unknown> = { ...DEFAULT_SETTINGS };
  for (const row of rows) if (Object.hasOwn(DEFAULT_SETTINGS, row.key)) raw[row.key] = row.value;
  const parsed = settingsSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  // A stored value outside its bounds falls back to the default for that key only.
  const out: Record<string, unknown> = {};
  for (const key of SETTING_KEYS) {
    const one = settingsSchema.shape[key].safeParse(raw[key]);
    out[key] = one.success ? one.data : DEFAULT_SETTINGS[key];
  }
  return out as Settings;
}
