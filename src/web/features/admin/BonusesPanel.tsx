import { Gift, Pencil, TicketPercent } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { BONUS_MAX_BP, COUPON_CODE_PATTERN, COUPON_KINDS, type CouponKind } from '../../../core/bonuses';
import { TOPUP_MAX_MICROS } from '../../../core/contracts/payments';
import { MICROS_PER_CENT, microsToDecimal, minorToDecimal, parseMinor, parseUsdToMicros } from '../../../core/money';
import { PAYMENT_METHOD_KINDS, type PaymentMethodKind } from '../../../core/paymentMethods';
import { useTranslation } from '../../i18n';
import { Button } from '../../components/ui/Button';
import { Input } from '../../components/ui/Input';
import { errorText } from '../../lib/errorText';
import { ApiError } from '../../lib/api';
import { formatMoney, formatNumber } from '../../lib/format';
import { formatShopDateTime, fromShopInput, shopZoneOffset, toShopInput } from '../../lib/shopTime';
import { useLanguage } from '../../lib/language';
import { useCan } from './access';
import { useBonuses, useCreateBonusRule, useCreateCoupon, useUpdateBonusRule, useUpdateCoupon, type BonusRuleInput, type BonusRuleRow, type CouponInput, type CouponRow } from './api';
import { FormAlert, FormDialog } from './dialogs';
import { notify, notifyError } from './format';
import { Field, NewButton, Panel, QueryView, Select, Table, td, Th, Toggle } from './ui';

/**
 * Deposit bonus rules and coupons on the team's payments page (docs/rules.md#bonuses): what each
 * gives and has given, seen with `payments:read`, added and changed with `prices:manage`. Amounts
 * are typed in dollars and sent in micro-dollars, shares typed in percent and sent in hundredths
 * of a percent; a refused save keeps the dialog open with what was typed.
 */
export function BonusesPanel() {
  const { t } = useTranslation('admin');
  const manage = useCan()('prices:manage');
  const bonuses = useBonuses();
  const [rule, setRule] = useState<BonusRuleRow | 'new' | null>(null);
  const [coupon, setCoupon] = useState<CouponRow | 'new' | null>(null);
  return (
    <section className="mt-6 space-y-6" aria-labelledby="bonuses-title" data-testid="bonuses">
      <div>
        <h2 id="bonuses-title" className="text-lg font-semibold text-slate-900">
          {t('bonuses.title')}
        </h2>
        <p className="mt-0.5 text-sm text-slate-500">{manage ? t('bonuses.lead') : t('bonuses.leadReadOnly')}</p>
      </div>
      <Panel data-testid="bonus-rules">
        <PanelHead icon={Gift} title={t('bonuses.rulesTitle')} lead={t('bonuses.rulesLead')}>
          {manage ? <NewButton onClick={() => setRule('new')}>{t('bonuses.newRule')}</NewButton> : null}
        </PanelHead>
        <QueryView query={bonuses} error={t('bonuses.notLoaded')} empty={t('bonuses.noRules')} isEmpty={(d) => d.rules.length === 0}>
          {(d) => <RulesTable rules={d.rules} onEdit={manage ? setRule : undefined} />}
        </QueryView>
      </Panel>
      <Panel data-testid="coupons">
        <PanelHead icon={TicketPercent} title={t('bonuses.couponsTitle')} lead={t('bonuses.couponsLead')}>
          {manage ? <NewButton onClick={() => setCoupon('new')}>{t('bonuses.newCoupon')}</NewButton> : null}
        </PanelHead>
        <QueryView query={bonuses} error={t('bonuses.notLoaded')} empty={t('bonuses.noCoupons')} isEmpty={(d) => d.coupons.length === 0}>
          {(d) => <CouponsTable coupons={d.coupons} onEdit={manage ? setCoupon : undefined} />}
        </QueryView>
      </Panel>
      {rule ? <RuleDialog rule={rule === 'new' ? null : rule} onClose={() => setRule(null)} /> : null}
      {coupon ? <CouponDialog coupon={coupon === 'new' ? null : coupon} onClose={() => setCoupon(null)} /> : null}
    </section>
  );
}

function PanelHead({ icon: Icon, title, lead, children }: { icon: typeof Gift; title: string; lead: string; children?: ReactNode }) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-200 p-4">
      <div>
        <h3 className="flex items-center gap-2 text-base font-semibold text-slate-900">
          <Icon className="size-4 text-brand-600" aria-hidden="true" />
          {title}
        </h3>
        <p className="mt-0.5 text-sm text-slate-500">{lead}</p>
      </div>
      {children}
    </div>
  );
}

/** "12.5 %" from hundredths of a percent, as the page's language writes numbers. */
const percentText = (bp: number, lang: string) => `${formatNumber(Number(minorToDecimal(bp)), lang)} %`;

function StateBadge({ on }: { on: boolean }) {
  const { t } = useTranslation('admin');
  return on ? (
    <span className="rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-medium text-emerald-700">{t('bonuses.on')}</span>
  ) : (
    <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-600">{t('bonuses.off')}</span>
  );
}

function EditCell({ name, onEdit }: { name: string; onEdit: () => void }) {
  const { t } = useTranslation('admin');
  return (
    <td className={`${td} whitespace-nowrap text-right`}>
      {/* The pencil alone, named for the rule or coupon it edits: the table fits its panel at 1280 px. */}
      <Button variant="outline" size="sm" onClick={onEdit} aria-label={t('common.editItem', { name })} title={t('bonuses.edit')}>
        <Pencil className="size-4" aria-hidden="true" />
      </Button>
    </td>
  );
}

/** The edit buttons' column: its name for screen readers only, kept inside the table's scroller (`relative`). */
function EditHeading() {
  const { t } = useTranslation('admin');
  return (
    <Th className="relative text-right">
      <span className="sr-only">{t('common.actions')}</span>
    </Th>
  );
}

function RulesTable({ rules, onEdit }: { rules: BonusRuleRow[]; onEdit?: (rule: BonusRuleRow) => void }) {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  const usd = (micros: number) => formatMoney(micros, 'USD', lang);
  const period = (r: BonusRuleRow) =>
    r.startsAt === null && r.endsAt === null
      ? t('bonuses.always')
      : `${r.startsAt ? formatShopDateTime(r.startsAt, lang) : '…'} – ${r.endsAt ? formatShopDateTime(r.endsAt, lang) : '…'}`;
  return (
    <Table
      label={t('bonuses.rulesTitle')}
      minWidth="min-w-[760px]"
      dense
      head={
        <>
          <Th wrap>{t('bonuses.name')}</Th>
          <Th wrap>{t('bonuses.method')}</Th>
          <Th wrap className="text-right">{t('bonuses.from')}</Th>
          <Th wrap className="text-right">{t('bonuses.percent')}</Th>
          <Th wrap className="text-right">{t('bonuses.cap')}</Th>
          <Th wrap>{t('bonuses.inShopZone', { what: t('bonuses.period'), offset: shopZoneOffset() })}</Th>
          <Th wrap>{t('bonuses.state')}</Th>
          <Th wrap className="text-right">{t('bonuses.uses')}</Th>
          <Th wrap className="text-right">{t('bonuses.given')}</Th>
          {onEdit ? <EditHeading /> : null}
        </>
      }
    >
      {rules.map((r) => (
        <tr key={r.id} data-testid="rule-row">
          <td className={`${td} font-medium text-slate-900`}>{r.name}</td>
          <td className={td}>{r.method ? t(`methods.kinds.${r.method}`) : t('bonuses.anyMethod')}</td>
          <td className={`${td} whitespace-nowrap text-right tabular-nums`}>{usd(r.minMicros)}</td>
          <td className={`${td} whitespace-nowrap text-right font-semibold tabular-nums text-emerald-700`}>{percentText(r.percentBp, lang)}</td>
          <td className={`${td} whitespace-nowrap text-right tabular-nums`}>{r.capMicros === null ? t('bonuses.noCap') : usd(r.capMicros)}</td>
          <td className={`${td} text-xs`}>{period(r)}</td>
          <td className={td}>
            <StateBadge on={r.enabled} />
          </td>
          <td className={`${td} whitespace-nowrap text-right tabular-nums`}>{formatNumber(r.uses, lang)}</td>
          <td className={`${td} whitespace-nowrap text-right tabular-nums`}>{usd(r.givenMicros)}</td>
          {onEdit ? <EditCell name={r.name} onEdit={() => onEdit(r)} /> : null}
        </tr>
      ))}
    </Table>
  );
}

function CouponsTable({ coupons, onEdit }: { coupons: CouponRow[]; onEdit?: (coupon: CouponRow) => void }) {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  const usd = (micros: number) => formatMoney(micros, 'USD', lang);
  const gives = (c: CouponRow) =>
    c.kind === 'amount'
      ? usd(c.amountMicros ?? 0)
      : c.capMicros === null
        ? percentText(c.percentBp ?? 0, lang)
        : t('bonuses.percentUpTo', { percent: percentText(c.percentBp ?? 0, lang), cap: usd(c.capMicros) });
  return (
    <Table
      label={t('bonuses.couponsTitle')}
      minWidth="min-w-[760px]"
      dense
      head={
        <>
          <Th wrap>{t('bonuses.code')}</Th>
          <Th wrap className="text-right">{t('bonuses.gives')}</Th>
          <Th wrap className="text-right">{t('bonuses.from')}</Th>
          <Th wrap className="text-right">{t('bonuses.perCustomer')}</Th>
          <Th wrap className="text-right">{t('bonuses.totalUses')}</Th>
          <Th wrap>{t('bonuses.inShopZone', { what: t('bonuses.expires'), offset: shopZoneOffset() })}</Th>
          <Th wrap>{t('bonuses.state')}</Th>
          <Th wrap className="text-right">{t('bonuses.usedOf')}</Th>
          <Th wrap className="text-right">{t('bonuses.given')}</Th>
          {onEdit ? <EditHeading /> : null}
        </>
      }
    >
      {coupons.map((c) => (
        <tr key={c.id} data-testid="coupon-row">
          <td className={`${td} font-mono font-medium text-slate-900`}>{c.code}</td>
          <td className={`${td} text-right font-semibold tabular-nums text-emerald-700`}>{gives(c)}</td>
          <td className={`${td} whitespace-nowrap text-right tabular-nums`}>{usd(c.minTopUpMicros)}</td>
          <td className={`${td} whitespace-nowrap text-right tabular-nums`}>{formatNumber(c.perCustomer, lang)}</td>
          <td className={`${td} whitespace-nowrap text-right tabular-nums`}>{c.totalUses === null ? t('bonuses.unlimited') : formatNumber(c.totalUses, lang)}</td>
          <td className={`${td} text-xs`}>{c.expiresAt ? formatShopDateTime(c.expiresAt, lang) : t('bonuses.never')}</td>
          <td className={td}>
            <StateBadge on={c.enabled} />
          </td>
          <td className={`${td} whitespace-nowrap text-right tabular-nums`}>{c.totalUses === null ? formatNumber(c.uses, lang) : `${formatNumber(c.uses, lang)} / ${formatNumber(c.totalUses, lang)}`}</td>
          <td className={`${td} whitespace-nowrap text-right tabular-nums`}>{usd(c.givenMicros)}</td>
          {onEdit ? <EditCell name={c.code} onEdit={() => onEdit(c)} /> : null}
        </tr>
      ))}
    </Table>
  );
}

// ─── Typed values ──────────────────────────────────────────────────────────────────────────

/** Dollars typed with up to two decimals ("10", "2,50") → micro-dollars from `min` to the largest top-up; null otherwise. */
function dollars(text: string, min: number): number | null {
  const micros = parseUsdToMicros(text.trim().replace(',', '.'), 2);
  return micros === null || micros < min || micros > TOPUP_MAX_MICROS ? null : micros;
}

/** A percent typed with up to two decimals ("10", "12,5") → hundredths of a percent, 0.01–100 %; null otherwise. */
function percentBp(text: string): number | null {
  const bp = parseMinor(text.trim().replace(',', '.'));
  return bp === null || bp < 1 || bp > BONUS_MAX_BP ? null : bp;
}

/** Hundredths of a percent as a field's text, without trailing zeros: 1000 → "10", 1250 → "12.5". */
const percentInput = (bp: number) => minorToDecimal(bp).replace(/\.?0+$/, '');

/** A whole number typed, from 1 to `max`; null otherwise. */
function count(text: string, max: number): number | null {
  const n = /^\d{1,7}$/.test(text.trim()) ? Number(text.trim()) : null;
  return n === null || n < 1 || n > max ? null : n;
}

/** An optional amount's field: blank is none; else dollars from a cent. */
const optionalDollars = (text: string) => (text.trim() === '' ? null : (dollars(text, MICROS_PER_CENT) ?? undefined));

// ─── Rule dialog ───────────────────────────────────────────────────────────────────────────

type RuleDraft = { name: string; method: PaymentMethodKind | ''; min: string; percent: string; cap: string; startsAt: string; endsAt: string; enabled: boolean };

/** The rule a draft makes, or which fields keep it from being one. */
function ruleFromDraft(d: RuleDraft): { input: BonusRuleInput; errors: null } | { input: null; errors: Partial<Record<keyof RuleDraft, true>> } {
  const name = d.name.trim();
  const minMicros = dollars(d.min || '0', 0);
  const bp = percentBp(d.percent);
  const cap = optionalDollars(d.cap);
  const startsAt = fromShopInput(d.startsAt);
  const endsAt = fromShopInput(d.endsAt);
  const errors: Partial<Record<keyof RuleDraft, true>> = {};
  if (!name || name.length > 80) errors.name = true;
  if (minMicros === null) errors.min = true;
  if (bp === null) errors.percent = true;
  if (cap === undefined) errors.cap = true;
  if (startsAt === undefined) errors.startsAt = true;
  if (endsAt === undefined || (startsAt && endsAt && Date.parse(startsAt) >= Date.parse(endsAt))) errors.endsAt = true;
  if (Object.keys(errors).length || minMicros === null || bp === null || cap === undefined || startsAt === undefined || endsAt === undefined) return { input: null, errors };
  return { input: { name, method: d.method || null, minMicros, percentBp: bp, capMicros: cap, startsAt, endsAt, enabled: d.enabled }, errors: null };
}

function RuleDialog({ rule, onClose }: { rule: BonusRuleRow | null; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const create = useCreateBonusRule();
  const update = useUpdateBonusRule();
  const [draft, setDraft] = useState<RuleDraft>({
    name: rule?.name ?? '',
    method: rule?.method ?? '',
    min: rule ? microsToDecimal(rule.minMicros) : '',
    percent: rule ? percentInput(rule.percentBp) : '',
    cap: rule?.capMicros != null ? microsToDecimal(rule.capMicros) : '',
    startsAt: toShopInput(rule?.startsAt ?? null),
    endsAt: toShopInput(rule?.endsAt ?? null),
    enabled: rule?.enabled ?? true,
  });
  const [tried, setTried] = useState(false);
  const [refused, setRefused] = useState<string | null>(null);
  const checked = ruleFromDraft(draft);
  const errors = tried ? (checked.errors ?? {}) : {};
  const set = (patch: Partial<RuleDraft>) => setDraft((d) => ({ ...d, ...patch }));

  const submit = () => {
    setTried(true);
    setRefused(null);
    if (!checked.input) return;
    const input = checked.input;
    const done = {
      onSuccess: () => {
        notify.success(t('bonuses.ruleSaved'), input.name);
        onClose();
      },
      onError: (err: unknown) => {
        setRefused(errorText(t, err, 'admin'));
        notifyError(t, 'bonuses.ruleNotSaved', err);
      },
    };
    if (rule) update.mutate({ id: rule.id, input }, done);
    else create.mutate(input, done);
  };

  return (
    <FormDialog title={rule ? t('bonuses.editRuleTitle', { name: rule.name }) : t('bonuses.newRule')} onClose={onClose} onSubmit={submit} pending={create.isPending || update.isPending} className="sm:max-w-2xl">
      <FormAlert>{refused}</FormAlert>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label={t('bonuses.name')} error={errors.name ? t('bonuses.nameInvalid') : undefined} className="sm:col-span-2">
          {(control) => <Input {...control} maxLength={80} value={draft.name} onChange={(e) => set({ name: e.target.value })} />}
        </Field>
        <Field label={t('bonuses.method')}>
          {(control) => (
            <Select {...control} value={draft.method} onChange={(e) => set({ method: e.target.value as PaymentMethodKind | '' })}>
              <option value="">{t('bonuses.anyMethod')}</option>
              {PAYMENT_METHOD_KINDS.map((k) => (
                <option key={k} value={k}>
                  {t(`methods.kinds.${k}`)}
                </option>
              ))}
            </Select>
          )}
        </Field>
        <Field label={t('bonuses.fromField')} hint={t('bonuses.fromHint')} error={errors.min ? t('bonuses.amountInvalid') : undefined}>
          {(control) => <Input {...control} inputMode="decimal" placeholder="0" value={draft.min} onChange={(e) => set({ min: e.target.value })} />}
        </Field>
        <Field label={t('bonuses.percentField')} hint={t('bonuses.percentHint')} error={errors.percent ? t('bonuses.percentInvalid') : undefined}>
          {(control) => <Input {...control} inputMode="decimal" placeholder="10" value={draft.percent} onChange={(e) => set({ percent: e.target.value })} />}
        </Field>
        <Field label={t('bonuses.capField')} hint={t('bonuses.capHint')} error={errors.cap ? t('bonuses.capInvalid') : undefined}>
          {(control) => <Input {...control} inputMode="decimal" value={draft.cap} onChange={(e) => set({ cap: e.target.value })} />}
        </Field>
        <Field label={t('bonuses.startsAt')} hint={t('bonuses.openHint', { offset: shopZoneOffset() })} error={errors.startsAt ? t('bonuses.dateInvalid') : undefined}>
          {(control) => <Input {...control} type="datetime-local" value={draft.startsAt} onChange={(e) => set({ startsAt: e.target.value })} />}
        </Field>
        <Field label={t('bonuses.endsAt')} hint={t('bonuses.openHint', { offset: shopZoneOffset() })} error={errors.endsAt ? t('bonuses.endInvalid') : undefined}>
          {(control) => <Input {...control} type="datetime-local" value={draft.endsAt} onChange={(e) => set({ endsAt: e.target.value })} />}
        </Field>
        <div className="sm:col-span-2">
          <Toggle label={t('bonuses.enabled')} checked={draft.enabled} onChange={(v) => set({ enabled: v })} />
        </div>
      </div>
    </FormDialog>
  );
}

// ─── Coupon dialog ─────────────────────────────────────────────────────────────────────────

type CouponDraft = { code: string; kind: CouponKind; amount: string; percent: string; cap: string; min: string; perCustomer: string; totalUses: string; expiresAt: string; enabled: boolean };

/** The coupon a draft makes, or which fields keep it from being one (the fields of the other kind are not sent). */
function couponFromDraft(d: CouponDraft): { input: CouponInput; errors: null } | { input: null; errors: Partial<Record<keyof CouponDraft, true>> } {
  const code = d.code.trim();
  const amount = d.kind === 'amount' ? dollars(d.amount, MICROS_PER_CENT) : null;
  const bp = d.kind === 'percent' ? percentBp(d.percent) : null;
  const cap = d.kind === 'percent' ? optionalDollars(d.cap) : null;
  const minTopUpMicros = dollars(d.min || '0', 0);
  const perCustomer = count(d.perCustomer, 1000);
  const totalUses = d.totalUses.trim() === '' ? null : (count(d.totalUses, 1_000_000) ?? undefined);
  const expiresAt = fromShopInput(d.expiresAt);
  const errors: Partial<Record<keyof CouponDraft, true>> = {};
  if (!COUPON_CODE_PATTERN.test(code)) errors.code = true;
  if (d.kind === 'amount' && amount === null) errors.amount = true;
  if (d.kind === 'percent' && bp === null) errors.percent = true;
  if (cap === undefined) errors.cap = true;
  if (minTopUpMicros === null) errors.min = true;
  if (perCustomer === null) errors.perCustomer = true;
  if (totalUses === undefined) errors.totalUses = true;
  if (expiresAt === undefined) errors.expiresAt = true;
  if (Object.keys(errors).length || cap === undefined || minTopUpMicros === null || perCustomer === null || totalUses === undefined || expiresAt === undefined) return { input: null, errors };
  return { input: { code, kind: d.kind, amountMicros: amount, percentBp: bp, capMicros: cap, minTopUpMicros, perCustomer, totalUses, expiresAt, enabled: d.enabled }, errors: null };
}

function CouponDialog({ coupon, onClose }: { coupon: CouponRow | null; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const create = useCreateCoupon();
  const update = useUpdateCoupon();
  const [draft, setDraft] = useState<CouponDraft>({
    code: coupon?.code ?? '',
    kind: coupon?.kind ?? 'amount',
    amount: coupon?.amountMicros != null ? microsToDecimal(coupon.amountMicros) : '',
    percent: coupon?.percentBp != null ? percentInput(coupon.percentBp) : '',
    cap: coupon?.capMicros != null ? microsToDecimal(coupon.capMicros) : '',
    min: coupon ? microsToDecimal(coupon.minTopUpMicros) : '',
    perCustomer: String(coupon?.perCustomer ?? 1),
    totalUses: coupon?.totalUses != null ? String(coupon.totalUses) : '',
    expiresAt: toShopInput(coupon?.expiresAt ?? null),
    enabled: coupon?.enabled ?? true,
  });
  const [tried, setTried] = useState(false);
  const [refused, setRefused] = useState<{ text: string; codeTaken: boolean } | null>(null);
  const checked = couponFromDraft(draft);
  const errors = tried ? (checked.errors ?? {}) : {};
  const set = (patch: Partial<CouponDraft>) => setDraft((d) => ({ ...d, ...patch }));

  const submit = () => {
    setTried(true);
    setRefused(null);
    if (!checked.input) return;
    const input = checked.input;
    const done = {
      onSuccess: () => {
        notify.success(t('bonuses.couponSaved'), input.code.toUpperCase());
        onClose();
      },
      onError: (err: unknown) => {
        setRefused({ text: errorText(t, err, 'admin'), codeTaken: err instanceof ApiError && err.code === 'COUPON_CODE_TAKEN' });
        notifyError(t, 'bonuses.couponNotSaved', err);
      },
    };
    if (coupon) update.mutate({ id: coupon.id, input }, done);
    else create.mutate(input, done);
  };

  const codeError = errors.code ? t('bonuses.codeInvalid') : refused?.codeTaken ? refused.text : undefined;
  return (
    <FormDialog title={coupon ? t('bonuses.editCouponTitle', { code: coupon.code }) : t('bonuses.newCoupon')} onClose={onClose} onSubmit={submit} pending={create.isPending || update.isPending} className="sm:max-w-2xl">
      <FormAlert>{refused && !refused.codeTaken ? refused.text : null}</FormAlert>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label={t('bonuses.code')} hint={t('bonuses.codeHint')} error={codeError}>
          {(control) => <Input {...control} maxLength={32} autoCapitalize="characters" spellCheck={false} className="font-mono uppercase" value={draft.code} onChange={(e) => set({ code: e.target.value })} />}
        </Field>
        <Field label={t('bonuses.kind')}>
          {(control) => (
            <Select {...control} value={draft.kind} onChange={(e) => set({ kind: e.target.value as CouponKind })}>
              {COUPON_KINDS.map((k) => (
                <option key={k} value={k}>
                  {t(`bonuses.kinds.${k}`)}
                </option>
              ))}
            </Select>
          )}
        </Field>
        {draft.kind === 'amount' ? (
          <Field label={t('bonuses.amountField')} error={errors.amount ? t('bonuses.amountPositiveInvalid') : undefined} className="sm:col-span-2">
            {(control) => <Input {...control} inputMode="decimal" placeholder="5" value={draft.amount} onChange={(e) => set({ amount: e.target.value })} />}
          </Field>
        ) : (
          <>
            <Field label={t('bonuses.percentField')} hint={t('bonuses.percentHint')} error={errors.percent ? t('bonuses.percentInvalid') : undefined}>
              {(control) => <Input {...control} inputMode="decimal" placeholder="10" value={draft.percent} onChange={(e) => set({ percent: e.target.value })} />}
            </Field>
            <Field label={t('bonuses.capField')} hint={t('bonuses.capHint')} error={errors.cap ? t('bonuses.capInvalid') : undefined}>
              {(control) => <Input {...control} inputMode="decimal" value={draft.cap} onChange={(e) => set({ cap: e.target.value })} />}
            </Field>
          </>
        )}
        <Field label={t('bonuses.fromField')} hint={t('bonuses.fromHint')} error={errors.min ? t('bonuses.amountInvalid') : undefined}>
          {(control) => <Input {...control} inputMode="decimal" placeholder="0" value={draft.min} onChange={(e) => set({ min: e.target.value })} />}
        </Field>
        <Field label={t('bonuses.expiresField')} hint={t('bonuses.neverHint', { offset: shopZoneOffset() })} error={errors.expiresAt ? t('bonuses.dateInvalid') : undefined}>
          {(control) => <Input {...control} type="datetime-local" value={draft.expiresAt} onChange={(e) => set({ expiresAt: e.target.value })} />}
        </Field>
        <Field label={t('bonuses.perCustomerField')} error={errors.perCustomer ? t('bonuses.perCustomerInvalid') : undefined}>
          {(control) => <Input {...control} type="number" min={1} max={1000} step={1} value={draft.perCustomer} onChange={(e) => set({ perCustomer: e.target.value })} />}
        </Field>
        <Field label={t('bonuses.totalUsesField')} hint={t('bonuses.unlimitedHint')} error={errors.totalUses ? t('bonuses.totalUsesInvalid') : undefined}>
          {(control) => <Input {...control} type="number" min={1} max={1_000_000} step={1} value={draft.totalUses} onChange={(e) => set({ totalUses: e.target.value })} />}
        </Field>
        <div className="sm:col-span-2">
          <Toggle label={t('bonuses.couponEnabled')} checked={draft.enabled} onChange={(v) => set({ enabled: v })} />
        </div>
      </div>
    </FormDialog>
  );
}
