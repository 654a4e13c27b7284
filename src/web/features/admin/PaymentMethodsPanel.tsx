import { Pencil } from 'lucide-react';
import { useState } from 'react';
import { TOPUP_MIN_MICROS, type StaffPaymentMethod } from '../../../core/contracts/payments';
import { LANGUAGES, type Language } from '../../../core/i18n';
import { microsToDecimal, minorToDecimal, parseMinor, parseUsdToMicros } from '../../../core/money';
import { MAX_METHOD_FEE_BP, type PaymentCurrency } from '../../../core/paymentMethods';
import { useTranslation } from '../../i18n';
import { Button } from '../../components/ui/Button';
import { Input } from '../../components/ui/Input';
import { formatMoney } from '../../lib/format';
import { useLanguage } from '../../lib/language';
import { usePaymentMethodsAdmin, useSavePaymentMethod } from './api';
import { FormAlert, FormDialog } from './dialogs';
import { notify, notifyError } from './format';
import { LocalizedFields, type LocalizedField } from './LocalizedFields';
import { Field, Panel, QueryView, Select, Table, td, Th, Toggle } from './ui';

/**
 * The team's payment methods (docs/rules.md#payment-methods), under the settings: each kind with
 * its names, currency, bounds, fee and place on the top-up dialog, whether it is on, and whether
 * this shop can take money through it (a gateway without keys is never offered).
 */
export function PaymentMethodsPanel() {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  const methods = usePaymentMethodsAdmin();
  const [editing, setEditing] = useState<StaffPaymentMethod | null>(null);
  return (
    <Panel className="mt-6" data-testid="payment-methods">
      <h2 className="border-b border-slate-200 px-5 py-4 text-base font-semibold text-slate-900">{t('methods.title')}</h2>
      <p className="px-5 pt-4 text-sm text-slate-600">{t('methods.lead')}</p>
      <QueryView query={methods} error={t('methods.notLoaded')} empty={t('methods.empty')} isEmpty={(d) => d.length === 0}>
        {(data) => (
          <Table
            label={t('methods.title')}
            head={
              <>
                <Th>{t('methods.name')}</Th>
                <Th>{t('methods.currency')}</Th>
                <Th>{t('methods.bounds')}</Th>
                <Th>{t('methods.fee')}</Th>
                <Th>{t('methods.state')}</Th>
                <Th className="text-right">{t('methods.actions')}</Th>
              </>
            }
          >
            {data.map((m) => (
              <tr key={m.kind}>
                <td className={td}>
                  <span className="font-medium text-slate-900">{m.name[lang]}</span>
                  <span className="block text-xs text-slate-500">{t(`methods.kinds.${m.kind}`)}</span>
                </td>
                <td className={td}>{m.currency}</td>
                <td className={`${td} tabular-nums`}>
                  {formatMoney(m.minMicros, 'USD', lang)} – {formatMoney(m.maxMicros, 'USD', lang)}
                </td>
                <td className={`${td} tabular-nums`}>{m.feeBp ? `${minorToDecimal(m.feeBp)} %` : '—'}</td>
                <td className={td}>
                  {!m.configured ? (
                    <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-600">{t('methods.notConfigured')}</span>
                  ) : m.enabled ? (
                    <span className="rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-medium text-emerald-700">{t('methods.on')}</span>
                  ) : (
                    <span className="rounded-full bg-amber-50 px-2 py-0.5 text-xs font-medium text-amber-800">{t('methods.off')}</span>
                  )}
                </td>
                <td className={`${td} text-right`}>
                  <Button variant="outline" size="sm" onClick={() => setEditing(m)} aria-label={t('methods.edit', { name: m.name[lang] })}>
                    <Pencil className="size-4" aria-hidden="true" />
                    {t('methods.editShort')}
                  </Button>
                </td>
              </tr>
            ))}
          </Table>
        )}
      </QueryView>
      {editing ? <MethodDialog method={editing} onClose={() => setEditing(null)} /> : null}
    </Panel>
  );
}

type Draft = {
  name: Record<Language, string>;
  details: Record<Language, string>;
  currency: PaymentCurrency;
  min: string;
  max: string;
  fee: string;
  position: string;
  enabled: boolean;
};

/** Why a draft cannot be saved, field by field (the server checks the same and more). */
function draftIssues(d: Draft) {
  const min = parseUsdToMicros(d.min.replace(',', '.'), 2);
  const max = parseUsdToMicros(d.max.replace(',', '.'), 2);
  const fee = parseMinor(d.fee.replace(',', '.') || '0');
  const position = /^\d{1,4}$/.test(d.position.trim()) ? Number(d.position) : null;
  return {
    missing: LANGUAGES.filter((l) => !d.name[l].trim()),
    min: min === null || min < TOPUP_MIN_MICROS ? 'invalid' : null,
    max: max === null || (min !== null && max < min) ? 'invalid' : null,
    fee: fee === null || fee > MAX_METHOD_FEE_BP ? 'invalid' : null,
    position: position === null || position > 1000 ? 'invalid' : null,
    values: { min, max, fee, position },
  };
}

function MethodDialog({ method, onClose }: { method: StaffPaymentMethod; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const save = useSavePaymentMethod();
  const [draft, setDraft] = useState<Draft>({
    name: method.name,
    details: method.details,
    currency: method.currency,
    min: microsToDecimal(method.minMicros),
    max: microsToDecimal(method.maxMicros),
    fee: minorToDecimal(method.feeBp),
    position: String(method.position),
    enabled: method.enabled,
  });
  const [tried, setTried] = useState(false);
  const issues = draftIssues(draft);
  const shown = tried ? issues : null;
  const fields: LocalizedField<'name' | 'details'>[] = [
    { key: 'name', label: t('methods.name'), max: 60, required: true },
    { key: 'details', label: method.kind === 'bank' ? t('methods.bankDetails') : t('methods.details'), max: 1000, multiline: true, rows: 4 },
  ];

  const submit = () => {
    setTried(true);
    const { min, max, fee, position } = issues.values;
    if (issues.missing.length || issues.min || issues.max || issues.fee || issues.position || min === null || max === null || fee === null || position === null) return;
    save.mutate(
      { kind: method.kind, input: { name: draft.name, details: draft.details, currency: draft.currency, minMicros: min, maxMicros: max, feeBp: fee, position, enabled: draft.enabled } },
      {
        onSuccess: () => {
          notify.success(t('methods.saved'));
          onClose();
        },
        onError: (err) => notifyError(t, 'methods.notSaved', err),
      },
    );
  };

  return (
    <FormDialog title={t('methods.editTitle', { name: method.name.en })} onClose={onClose} onSubmit={submit} pending={save.isPending} className="sm:max-w-2xl">
      {!method.configured ? <FormAlert>{t('methods.notConfiguredHint')}</FormAlert> : null}
      <LocalizedFields
        missing={shown?.missing ?? []}
        values={{ name: draft.name, details: draft.details }}
        onChange={(key, lang, value) => setDraft((d) => ({ ...d, [key]: { ...d[key], [lang]: value } }))}
        fields={fields}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label={t('methods.currency')}>
          {(control) => (
            <Select {...control} value={draft.currency} onChange={(e) => setDraft((d) => ({ ...d, currency: e.target.value as PaymentCurrency }))}>
              {method.currencies.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </Select>
          )}
        </Field>
        <Field label={t('methods.fee')} hint={t('methods.feeHint')} error={shown?.fee ? t('methods.feeInvalid') : undefined}>
          {(control) => <Input {...control} inputMode="decimal" value={draft.fee} onChange={(e) => setDraft((d) => ({ ...d, fee: e.target.value }))} />}
        </Field>
        <Field label={t('methods.min')} error={shown?.min ? t('methods.minInvalid') : undefined}>
          {(control) => <Input {...control} inputMode="decimal" value={draft.min} onChange={(e) => setDraft((d) => ({ ...d, min: e.target.value }))} />}
        </Field>
        <Field label={t('methods.max')} error={shown?.max ? t('methods.maxInvalid') : undefined}>
          {(control) => <Input {...control} inputMode="decimal" value={draft.max} onChange={(e) => setDraft((d) => ({ ...d, max: e.target.value }))} />}
        </Field>
        <Field label={t('methods.position')} error={shown?.position ? t('methods.positionInvalid') : undefined}>
          {(control) => <Input {...control} type="number" min={0} max={1000} step={1} value={draft.position} onChange={(e) => setDraft((d) => ({ ...d, position: e.target.value }))} />}
        </Field>
        <div className="flex items-end pb-2">
          <Toggle label={t('methods.enabled')} checked={draft.enabled} onChange={(v) => setDraft((d) => ({ ...d, enabled: v }))} />
        </div>
      </div>
    </FormDialog>
  );
}
