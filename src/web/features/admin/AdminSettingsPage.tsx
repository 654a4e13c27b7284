import { useQueryClient } from '@tanstack/react-query';
import { PaymentMethodsPanel } from './PaymentMethodsPanel';
import { Banknote, LifeBuoy, Save, ShoppingCart, Users } from 'lucide-react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { z } from 'zod';
import { useRevalidator } from 'react-router';
import { useTranslation } from '../../i18n';
import { isOnStep, SETTING_STEPS, settingsSchema, stepsAround, type NumericSettingKey, type Settings } from '../../../core/settings';
import type { PageMeta } from '../../app/page';
import { Button } from '../../components/ui/Button';
import { Input, Textarea } from '../../components/ui/Input';
import { useLanguage } from '../../lib/language';
import { useLiveEvents } from '../../lib/liveEvents';
import { adminKeys, useSaveSettings, useSettings, useSettingsStats } from './api';
import { notify, notifyError } from './format';
import { numericSetting } from './forms';
import { AdminPage, Field, LoadError, Loading, Panel, StatCard, Toggle, useFailureNotice } from './ui';
import { formatMoney, formatNumber } from '../../lib/format';

export const ns = ['admin'];
export const meta: PageMeta = ({ t, site }) => ({ title: `${t('admin:settings.title')} · ${site.site_name}` });

const TEXT_KEYS = ['site_name', 'contact_email', 'contact_phone', 'notification_email'] as const;
const NUMBER_FIELDS = [
  { key: 'service_fee', min: 0, max: 100 },
  { key: 'base_fee', min: 0 },
  { key: 'default_balance', min: 0 },
  { key: 'usd_azn_rate', min: 0 },
  { key: 'usd_try_rate', min: 0 },
] as const;
/** Delayed orders (docs/rules.md#delayed-orders): whole minutes and hours. */
const DELAY_FIELDS = [
  { key: 'stuck_floor_minutes', min: 1, max: 10_080 },
  { key: 'stuck_default_minutes', min: 1, max: 43_200 },
  { key: 'stuck_cancel_after_hours', min: 0, max: 720 },
] as const;
/** Providers' money (docs/rules.md#provider-funds): the dashboard's low-balance line, and how long orders wait for funds. */
const FUNDS_FIELDS = [
  { key: 'provider_low_balance', min: 0, max: undefined },
  { key: 'provider_funds_wait_hours', min: 1, max: 720 },
] as const;
const ALL_NUMBER_FIELDS = [...NUMBER_FIELDS, ...DELAY_FIELDS, ...FUNDS_FIELDS];
type NumberKey = (typeof ALL_NUMBER_FIELDS)[number]['key'] & NumericSettingKey;
type Draft = Omit<Settings, NumberKey> & Record<NumberKey, string>;

const toDraft = (s: Settings): Draft => ({ ...s, ...(Object.fromEntries(ALL_NUMBER_FIELDS.map((f) => [f.key, String(s[f.key])])) as Record<NumberKey, string>) });

/**
 * The settings as typed: numbers are read by `numericSetting` (text that is not a number becomes 0,
 * docs/rules.md#settings), then held to the contract's bounds and to their step (`SETTING_STEPS`);
 * an error's message is its `settings.<message>` text.
 */
const typedNumber = z.string().transform(numericSetting);
const onStep = (key: NumericSettingKey) => (n: z.ZodNumber) => n.refine((v) => isOnStep(v, SETTING_STEPS[key]), 'offStep');
export const settingsFormSchema = settingsSchema.extend({
  service_fee: typedNumber.pipe(onStep('service_fee')(z.number().min(0, 'feeRange').max(100, 'feeRange'))),
  base_fee: typedNumber.pipe(onStep('base_fee')(z.number().min(0, 'notNegative'))),
  default_balance: typedNumber.pipe(onStep('default_balance')(z.number().min(0, 'notNegative'))),
  usd_azn_rate: typedNumber.pipe(onStep('usd_azn_rate')(z.number().positive('positive'))),
  usd_try_rate: typedNumber.pipe(onStep('usd_try_rate')(z.number().positive('positive'))),
  stuck_floor_minutes: typedNumber.pipe(z.number().int('floorRange').min(1, 'floorRange').max(10_080, 'floorRange')),
  stuck_default_minutes: typedNumber.pipe(z.number().int('defaultRange').min(1, 'defaultRange').max(43_200, 'defaultRange')),
  stuck_cancel_after_hours: typedNumber.pipe(z.number().int('cancelRange').min(0, 'cancelRange').max(720, 'cancelRange')),
  provider_low_balance: typedNumber.pipe(onStep('provider_low_balance')(z.number().min(0, 'notNegative'))),
  provider_funds_wait_hours: typedNumber.pipe(z.number().int('fundsWaitRange').min(1, 'fundsWaitRange').max(720, 'fundsWaitRange')),
});
/** The contract reads stored rows of any shape (its text and flag fields take `unknown`), so it takes the form's strings and booleans as they are. */
const settingsResolver = zodResolver(settingsFormSchema) as Resolver<Draft, unknown, Settings>;

/** /admin/settings: the site and system settings form, and the stats cards (docs/rules.md#settings). */
export default function AdminSettingsPage() {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  const settings = useSettings();
  const stats = useSettingsStats();
  const save = useSaveSettings();
  const client = useQueryClient();
  const revalidator = useRevalidator();
  const [loaded, setLoaded] = useState(false);
  // The first answer fills the form once; a failed save keeps it as typed. Checked when sent only.
  const form = useForm<Draft, unknown, Settings>({ resolver: settingsResolver, reValidateMode: 'onSubmit', shouldFocusError: false });
  const { errors } = form.formState;

  useEffect(() => {
    if (settings.data && !loaded) {
      form.reset(toDraft(settings.data));
      setLoaded(true);
    }
  }, [settings.data, loaded, form]);
  useFailureNotice(settings, 'notices.settingsNotLoaded');
  // Another admin saved: refresh the stored values (the draft here stays as typed).
  useLiveEvents((e) => {
    if (e.type === 'settings') void client.invalidateQueries({ queryKey: adminKeys.settings() });
  });

  const send = (changes: Settings) => {
    save.mutate(changes, {
      onSuccess: (saved) => {
        form.reset(toDraft(saved));
        notify.success(t('notices.settingsSaved'));
        // The site name and contacts shown around the pages (root route) are read again.
        void revalidator.revalidate();
      },
      onError: (err) => notifyError(t, 'notices.settingsNotSaved', err),
    });
  };
  const submit = (e: FormEvent) => {
    // The number fields show the numbers they are read as, whether or not they pass.
    for (const f of ALL_NUMBER_FIELDS) form.setValue(f.key, String(numericSetting(form.getValues(f.key))));
    void form.handleSubmit(send)(e);
  };
  const numberError = (key: NumberKey) => {
    const message = errors[key]?.message;
    if (!message) return undefined;
    if (message !== 'offStep') return t(`settings.${message}`);
    const [below, above] = stepsAround(numericSetting(form.getValues(key)), SETTING_STEPS[key]);
    return t('settings.offStep', { step: formatNumber(SETTING_STEPS[key], lang), below: formatNumber(below, lang), above: formatNumber(above, lang) });
  };
  const checked = (key: 'maintenance_mode' | 'allow_registration') => ({
    checked: form.watch(key),
    onChange: (v: boolean) => form.setValue(key, v, { shouldDirty: true }),
  });

  const s = stats.data;
  return (
    <AdminPage
      title={t('settings.title')}
      description={t('settings.lead')}
      actions={
        loaded ? (
          <Button type="submit" form="settings-form" disabled={save.isPending} aria-busy={save.isPending}>
            <Save className="size-4" aria-hidden="true" />
            {t('settings.save')}
          </Button>
        ) : null
      }
    >
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <StatCard label={t('settings.stats.users')} value={s ? formatNumber(s.users, lang) : '…'} icon={Users} tone="brand" />
        <StatCard label={t('settings.stats.orders')} value={s ? formatNumber(s.orders, lang) : '…'} icon={ShoppingCart} tone="sky" />
        <StatCard label={t('settings.stats.topUps')} value={s ? formatMoney(s.topUpsQepik, 'AZN', lang) : '…'} icon={Banknote} tone="emerald" />
        <StatCard label={t('settings.stats.openTickets')} value={s ? formatNumber(s.openTickets, lang) : '…'} icon={LifeBuoy} tone="amber" />
      </div>

      {settings.isError && !settings.data ? (
        <Panel className="mt-6">
          <LoadError message={t('notices.settingsNotLoaded')} error={settings.error} onRetry={() => void settings.refetch()} />
        </Panel>
      ) : !loaded ? (
        <Loading />
      ) : (
        <form id="settings-form" onSubmit={submit} noValidate className="mt-6 grid gap-6 lg:grid-cols-2">
          <Section title={t('settings.site')}>
            {TEXT_KEYS.slice(0, 1).map((k) => (
              <Field key={k} label={t(`settings.fields.${k}`)}>
                {(control) => <Input {...control} {...form.register(k)} maxLength={500} />}
              </Field>
            ))}
            <Field label={t('settings.fields.site_description')}>
              {(control) => <Textarea {...control} {...form.register('site_description')} maxLength={500} rows={3} />}
            </Field>
            {TEXT_KEYS.slice(1).map((k) => (
              <Field key={k} label={t(`settings.fields.${k}`)}>
                {(control) => <Input {...control} type={k.endsWith('email') ? 'email' : 'text'} {...form.register(k)} maxLength={500} />}
              </Field>
            ))}
          </Section>
          <Section title={t('settings.system')}>
            <Toggle label={t('settings.fields.maintenance_mode')} description={t('settings.hints.maintenance_mode')} {...checked('maintenance_mode')} />
            <Toggle label={t('settings.fields.allow_registration')} description={t('settings.hints.allow_registration')} {...checked('allow_registration')} />
            <div className="grid gap-4 sm:grid-cols-2">
              {NUMBER_FIELDS.map((f) => (
                <Field key={f.key} label={t(`settings.fields.${f.key}`)} hint={t(`settings.hints.${f.key}`)} error={numberError(f.key)}>
                  {(control) => (
                    <Input {...control} type="number" inputMode="decimal" min={f.min} max={'max' in f ? f.max : undefined} step={SETTING_STEPS[f.key]} {...form.register(f.key)} />
                  )}
                </Field>
              ))}
            </div>
          </Section>
          <Section title={t('settings.delays')}>
            <div className="grid gap-4 sm:grid-cols-2">
              {DELAY_FIELDS.map((f) => (
                <Field key={f.key} label={t(`settings.fields.${f.key}`)} hint={t(`settings.hints.${f.key}`)} error={numberError(f.key)}>
                  {(control) => <Input {...control} type="number" inputMode="numeric" min={f.min} max={f.max} step={SETTING_STEPS[f.key]} {...form.register(f.key)} />}
                </Field>
              ))}
            </div>
          </Section>
          <Section title={t('settings.funds')}>
            <div className="grid gap-4 sm:grid-cols-2">
              {FUNDS_FIELDS.map((f) => (
                <Field key={f.key} label={t(`settings.fields.${f.key}`)} hint={t(`settings.hints.${f.key}`)} error={numberError(f.key)}>
                  {(control) => <Input {...control} type="number" inputMode="decimal" min={f.min} max={f.max} step={SETTING_STEPS[f.key]} {...form.register(f.key)} />}
                </Field>
              ))}
            </div>
          </Section>
          <div className="flex justify-end lg:col-span-2">
            <Button type="submit" disabled={save.isPending} aria-busy={save.isPending}>
              {t('common.save')}
            </Button>
          </div>
        </form>
      )}
      <PaymentMethodsPanel />
    </AdminPage>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Panel>
      <h2 className="border-b border-slate-200 px-5 py-4 text-base font-semibold text-slate-900">{title}</h2>
      <div className="space-y-4 p-5">{children}</div>
    </Panel>
  );
}
