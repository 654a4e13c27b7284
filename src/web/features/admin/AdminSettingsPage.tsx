import { useQueryClient } from '@tanstack/react-query';
import { Banknote, LifeBuoy, Save, ShoppingCart, Users } from 'lucide-react';
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { useRevalidator } from 'react-router';
import { useTranslation } from '../../i18n';
import type { Settings } from '../../../core/settings';
import type { PageMeta } from '../../app/page';
import { Button } from '../../components/ui/Button';
import { Textarea } from '../../components/ui/Input';
import { useLanguage } from '../../lib/language';
import { useLiveEvents } from '../../lib/liveEvents';
import { adminKeys, useSaveSettings, useSettings, useSettingsStats } from './api';
import { notify, notifyError } from './format';
import { numericSetting } from './forms';
import { AdminPage, Field, InputField, LoadError, Loading, Panel, StatCard, Toggle, useFailureNotice } from './ui';
import { formatMoney, formatNumber } from '../../lib/format';

export const ns = ['admin'];
export const meta: PageMeta = ({ t, site }) => ({ title: `${t('admin:settings.title')} · ${site.site_name}` });

const TEXT_KEYS = ['site_name', 'contact_email', 'contact_phone', 'notification_email'] as const;
const NUMBER_FIELDS = [
  { key: 'service_fee', min: 0, max: 100, step: 0.1 },
  { key: 'base_fee', min: 0, step: 0.01 },
  { key: 'default_balance', min: 0, step: 0.01 },
  { key: 'usd_azn_rate', min: 0, step: 0.0001 },
] as const;
type NumberKey = (typeof NUMBER_FIELDS)[number]['key'];
type Draft = Omit<Settings, NumberKey> & Record<NumberKey, string>;

const toDraft = (s: Settings): Draft => ({ ...s, service_fee: String(s.service_fee), base_fee: String(s.base_fee), default_balance: String(s.default_balance), usd_azn_rate: String(s.usd_azn_rate) });

/** /admin/settings: the site and system settings form, and the stats cards (docs/rules.md#settings). */
export default function AdminSettingsPage() {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  const settings = useSettings();
  const stats = useSettingsStats();
  const save = useSaveSettings();
  const client = useQueryClient();
  const revalidator = useRevalidator();
  const [draft, setDraft] = useState<Draft | null>(null);
  const [errors, setErrors] = useState<Partial<Record<NumberKey, string>>>({});

  useEffect(() => {
    if (settings.data && !draft) setDraft(toDraft(settings.data));
  }, [settings.data, draft]);
  useFailureNotice(settings, 'notices.settingsNotLoaded');
  // Another admin saved: refresh the stored values (the draft here stays as typed).
  useLiveEvents((e) => {
    if (e.type === 'settings') void client.invalidateQueries({ queryKey: adminKeys.settings() });
  });

  const set = <K extends keyof Draft>(k: K, v: Draft[K]) => setDraft((d) => (d ? { ...d, [k]: v } : d));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!draft) return;
    // Text that is not a number becomes 0 (docs/rules.md#settings); bounds are then checked.
    const numbers = Object.fromEntries(NUMBER_FIELDS.map((f) => [f.key, numericSetting(draft[f.key])])) as Record<NumberKey, number>;
    const next: Partial<Record<NumberKey, string>> = {};
    if (numbers.service_fee < 0 || numbers.service_fee > 100) next.service_fee = t('settings.feeRange');
    if (numbers.base_fee < 0) next.base_fee = t('settings.notNegative');
    if (numbers.default_balance < 0) next.default_balance = t('settings.notNegative');
    if (numbers.usd_azn_rate <= 0) next.usd_azn_rate = t('settings.positive');
    setErrors(next);
    setDraft({ ...draft, ...Object.fromEntries(NUMBER_FIELDS.map((f) => [f.key, String(numbers[f.key])])) });
    if (Object.keys(next).length) return;
    const changes: Settings = { ...draft, ...numbers };
    save.mutate(changes, {
      onSuccess: (saved) => {
        setDraft(toDraft(saved));
        notify.success(t('notices.settingsSaved'));
        // The site name and contacts shown around the pages (root route) are read again.
        void revalidator.revalidate();
      },
      onError: (err) => notifyError(t, 'notices.settingsNotSaved', err),
    });
  };

  const s = stats.data;
  return (
    <AdminPage
      title={t('settings.title')}
      description={t('settings.lead')}
      actions={
        draft ? (
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
        <StatCard label={t('settings.stats.revenue')} value={s ? formatMoney(s.revenueQepik, 'AZN', lang) : '…'} icon={Banknote} tone="emerald" />
        <StatCard label={t('settings.stats.openTickets')} value={s ? formatNumber(s.openTickets, lang) : '…'} icon={LifeBuoy} tone="amber" />
      </div>

      {settings.isError && !settings.data ? (
        <Panel className="mt-6">
          <LoadError message={t('notices.settingsNotLoaded')} onRetry={() => void settings.refetch()} />
        </Panel>
      ) : !draft ? (
        <Loading />
      ) : (
        <form id="settings-form" onSubmit={submit} noValidate className="mt-6 grid gap-6 lg:grid-cols-2">
          <Section title={t('settings.site')}>
            {TEXT_KEYS.slice(0, 1).map((k) => (
              <InputField key={k} label={t(`settings.fields.${k}`)} value={draft[k]} onChange={(e) => set(k, e.target.value)} maxLength={500} />
            ))}
            <Field label={t('settings.fields.site_description')}>
              {(control) => <Textarea {...control} value={draft.site_description} onChange={(e) => set('site_description', e.target.value)} maxLength={500} rows={3} />}
            </Field>
            {TEXT_KEYS.slice(1).map((k) => (
              <InputField key={k} label={t(`settings.fields.${k}`)} type={k.endsWith('email') ? 'email' : 'text'} value={draft[k]} onChange={(e) => set(k, e.target.value)} maxLength={500} />
            ))}
          </Section>
          <Section title={t('settings.system')}>
            <Toggle label={t('settings.fields.maintenance_mode')} description={t('settings.hints.maintenance_mode')} checked={draft.maintenance_mode} onChange={(v) => set('maintenance_mode', v)} />
            <Toggle label={t('settings.fields.allow_registration')} description={t('settings.hints.allow_registration')} checked={draft.allow_registration} onChange={(v) => set('allow_registration', v)} />
            <div className="grid gap-4 sm:grid-cols-2">
              {NUMBER_FIELDS.map((f) => (
                <InputField
                  key={f.key}
                  label={t(`settings.fields.${f.key}`)}
                  hint={t(`settings.hints.${f.key}`)}
                  error={errors[f.key]}
                  type="number"
                  inputMode="decimal"
                  min={f.min}
                  max={'max' in f ? f.max : undefined}
                  step={f.step}
                  value={draft[f.key]}
                  onChange={(e) => set(f.key, e.target.value)}
                />
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
