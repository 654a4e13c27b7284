/**
 * The settings' defaults and the keys anonymous visitors may read, apart from the schema in
 * ./settings.ts so that browser code needing only these does not carry the validation library;
 * ./settings.ts checks them against the schema's type.
 */
export const DEFAULT_SETTINGS = {
  site_name: 'Artım',
  site_description: 'Sosial media artımı və rəqəmsal marketinq xidmətləri',
  contact_email: 'info@artim.az',
  contact_phone: '+994 12 000 00 00',
  maintenance_mode: false,
  allow_registration: true,
  default_balance: 0,
  notification_email: '',
  service_fee: 0,
  base_fee: 0,
  usd_azn_rate: 1.7,
  usd_try_rate: 42,
  stuck_floor_minutes: 60,
  stuck_default_minutes: 360,
  stuck_cancel_after_hours: 0,
  provider_low_balance: 10,
  provider_funds_wait_hours: 24,
};

/** Keys anonymous visitors may read: what the storefront needs to price and greet. */
export const PUBLIC_SETTING_KEYS = [
  'site_name',
  'site_description',
  'contact_email',
  'contact_phone',
  'maintenance_mode',
  'allow_registration',
  'service_fee',
  'base_fee',
  'usd_azn_rate',
  'usd_try_rate',
] as const satisfies readonly (keyof typeof DEFAULT_SETTINGS)[];

