import { ArrowLeft, CreditCard, ExternalLink, Lock } from 'lucide-react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useMemo, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from '../../i18n';
import { toast } from '../../lib/toast';
import { TOPUP_MIN_MICROS, TOPUP_QUICK_AMOUNTS, type TopUpInput, type TopUpResult } from '../../../core/contracts/payments';
import { LOCALES } from '../../../core/i18n';
import { MICROS_PER_USD } from '../../../core/money';
import { quoteTopUp } from '../../../core/paymentMethods';
import { bestBonusRule, COUPON_CODE_PATTERN, type BonusRuleTerms } from '../../../core/bonuses';
import type { CouponCheck } from '../../../core/contracts/bonuses';
import { Button } from '../../components/ui/Button';
import { cn } from '../../components/ui/cn';
import { Dialog } from '../../components/ui/Dialog';
import { FieldError, Input, Label } from '../../components/ui/Input';
import { Spinner } from '../../components/ui/Spinner';
import { useLanguage } from '../../lib/language';
import { amountIssueText, parseTopUpAmount, SHOP_BOUNDS, topUpAmountIssue, topUpFormSchema, type TopUpFormValues } from './amount';
import { useBonusRules, useCouponCheck, usePaymentMethods, useTopUp } from './api';
import { MethodPicker } from './MethodPicker';
import { BankTransferStep } from './BankTransferStep';
import { formatMoney, formatNumber } from '../../lib/format';
import { errorText } from '../../lib/errorText';
import { showOpening } from './openingTab';

type Step = 'amount' | 'pay' | 'bank';

/** Hundredths of a percent as the page writes a percentage: 1000 → "10", 250 → "2.5" (in the page's digits). */
const percentText = (bp: number, locale: string) => formatNumber(String(bp / 100), locale);

/**
 * Balance top-up (docs/rules.md#payments, #payment-methods): choose a method and an amount (quick
 * amounts or free entry, within the method's bounds, whole cents), see what is charged in the
 * method's currency at the rate in force with its fee, and the deposit bonus it earns
 * (docs/rules.md#bonuses, computed by the rules' own function); then the payment dialog, where a
 * coupon may be added, which opens the method's payment page in a new tab.
 */
export function TopUpDialog({ open, onOpenChange, onOpened }: { open: boolean; onOpenChange: (open: boolean) => void; onOpened: () => void }) {
  const { t } = useTranslation('payments');
  const lang = useLanguage();
  const locale = LOCALES[lang];
  const methods = usePaymentMethods(open);
  const bonusRules = useBonusRules(open);
  const topUp = useTopUp();
  const couponCheck = useCouponCheck();
  const [couponText, setCouponText] = useState('');
  /** A coupon the server said the top-up may use, and what it gives. */
  const [coupon, setCoupon] = useState<CouponCheck | null>(null);
  const [couponError, setCouponError] = useState<string | null>(null);
  const rules = useMemo<BonusRuleTerms[]>(
    () =>
      (bonusRules.data ?? []).map((r) => ({ ...r, startsAt: r.startsAt ? new Date(r.startsAt) : null, endsAt: r.endsAt ? new Date(r.endsAt) : null, enabled: true })),
    [bonusRules.data],
  );
  const id = useId();
  const [step, setStep] = useState<Step>('amount');
  /** The checked amount, once the first step was sent. */
  const [input, setInput] = useState<TopUpInput | null>(null);
  /** A bank transfer once registered: the account, the amount and the reference to write on it. */
  const [transfer, setTransfer] = useState<TopUpResult | null>(null);
  const [chosen, setChosen] = useState<string | null>(null);
  const method = methods.data?.find((m) => m.kind === chosen) ?? methods.data?.[0] ?? null;
  const bounds = method ?? SHOP_BOUNDS;
  const boundsRef = useRef(bounds);
  boundsRef.current = bounds;
  // Checked when the field is left or the form sent, then as it changes, within the chosen method's bounds (docs/rules.md#payments).
  const form = useForm<TopUpFormValues, unknown, TopUpInput>({
    resolver: (values, context, options) => zodResolver(topUpFormSchema(boundsRef.current))(values, context, options),
    mode: 'onTouched',
    defaultValues: { amount: '10', language: lang, method: 'epoint' },
  });
  const text = form.watch('amount');
  const shown = form.formState.errors.amount?.message;

  const micros = parseTopUpAmount(text);
  // The button and the charged figure follow the amount as it is typed; the message waits for the field to be left.
  const invalid = topUpAmountIssue(text, bounds) !== null;
  const error = shown ? amountIssueText(t, shown, locale, bounds) : undefined;
  const quote = micros !== null && !invalid && method ? quoteTopUp(micros, method.rate, method.feeBp) : null;
  const charged = quote && method ? formatMoney(quote.amountMinor, method.currency, locale) : null;
  // What the amount earns by the rules in force (the server fixes it when the top-up starts), or the
  // smallest amount from which this method earns, to say so.
  const bonus = quote && method && micros !== null ? bestBonusRule(rules, { method: method.kind, amountMicros: micros, at: new Date() }) : null;
  const bonusRule = bonus ? rules.find((r) => r.id === bonus.ruleId) : undefined;
  const nextRule =
    !bonus && method
      ? rules.filter((r) => (r.method === null || r.method === method.kind) && r.minMicros > (micros ?? 0)).sort((a, b) => a.minMicros - b.minMicros)[0]
      : undefined;
  // On the payment step: what the chosen amount earns, as fixed when the step opened.
  const stepBonus = input ? bestBonusRule(rules, { method: input.method, amountMicros: input.amountMicros, at: new Date() }) : null;

  function change(next: boolean) {
    if (!next) {
      setStep('amount');
      form.reset({ amount: '10', language: lang, method: 'epoint' });
      dropCoupon();
    }
    onOpenChange(next);
  }

  function choose(kind: string) {
    setChosen(kind);
    // The amount is checked again against the new method's bounds once it was shown checked.
    if (form.formState.touchedFields.amount) void form.trigger('amount');
  }

  const toPay = form.handleSubmit((values) => {
    if (!method) return;
    setInput({ ...values, language: lang, method: method.kind });
    // A coupon is checked against the amount: a new amount asks again.
    dropCoupon();
    setStep('pay');
  });

  function dropCoupon() {
    setCoupon(null);
    setCouponError(null);
    setCouponText('');
  }

  async function applyCoupon() {
    if (!input) return;
    const code = couponText.trim();
    setCoupon(null);
    if (!COUPON_CODE_PATTERN.test(code)) {
      setCouponError(t('common:errors.COUPON_NOT_FOUND'));
      return;
    }
    try {
      setCoupon(await couponCheck.mutateAsync({ code, amountMicros: input.amountMicros }));
      setCouponError(null);
    } catch (err) {
      setCouponError(errorText(t, err, 'payments'));
    }
  }

  async function pay() {
    if (!input) return;
    const body: TopUpInput = coupon ? { ...input, coupon: coupon.code } : input;
    if (input.method === 'bank') {
      // Paid at the customer's own bank: no page to open, the account and reference are shown here.
      try {
        setTransfer(await topUp.mutateAsync(body));
        setStep('bank');
      } catch (err) {
        toast.error(t('errors.title'), { description: errorText(t, err, 'payments') });
      }
      return;
    }
    // Opened now, inside the click, so that popup blockers allow it; pointed at the card page
    // once the server has created the payment.
    const tab = window.open('', '_blank');
    if (tab) {
      tab.opener = null;
      try {
        showOpening(tab, lang, t('dialog.redirecting'));
      } catch {
        // a tab we cannot write to still works
      }
    }
    try {
      const result = await topUp.mutateAsync(body);
      const url = result.paymentUrl ?? '';
      if (tab && !tab.closed) tab.location.href = url;
      else window.location.assign(url);
      toast.info(t('dialog.opened'), { description: t('dialog.openedText') });
      change(false);
      onOpened();
    } catch (err) {
      tab?.close();
      toast.error(t('errors.title'), { description: errorText(t, err, 'payments') });
    }
  }

  return (
    <Dialog
      open={open}
      onOpenChange={change}
      title={step === 'amount' ? t('topup.title') : step === 'bank' ? t('bank.title') : t('dialog.title')}
      description={
        // On a phone the first step's explanation is for screen readers only (the charge and the rate
        // below say it), so that the dialog stays clear of a notice at the foot of the screen.
        step === 'amount' ? <span className="max-sm:sr-only">{t('topup.description')}</span> : step === 'bank' ? t('bank.description') : t('dialog.description')
      }
      closeLabel={t('close')}
    >
      {step === 'bank' && transfer ? (
        <BankTransferStep transfer={transfer} onDone={() => change(false)} />
      ) : step === 'amount' ? (
        <form noValidate onSubmit={(e) => void toPay(e)} data-testid="topup-dialog">
          <MethodPicker methods={methods} chosen={method?.kind ?? null} onChoose={choose} />
          <fieldset className="mt-3 sm:mt-4">
            <legend className="mb-2 text-sm font-medium text-slate-800 max-sm:sr-only">{t('topup.quick')}</legend>
            <div className="grid grid-cols-6 gap-1.5">
              {TOPUP_QUICK_AMOUNTS.map((usd) => {
                const active = micros === usd * MICROS_PER_USD;
                return (
                  <button
                    key={usd}
                    type="button"
                    aria-pressed={active}
                    onClick={() => {
                      // A quick amount starts the field afresh (its message waits to be left again); setValue tells the watchers.
                      form.resetField('amount', { defaultValue: String(usd) });
                      form.setValue('amount', String(usd));
                    }}
                    className={cn(
                      'h-10 rounded-xl border text-sm font-semibold tabular-nums transition-colors focus-visible:outline-2 focus-visible:outline-offset-2',
                      active ? 'border-brand-600 bg-brand-600 text-white' : 'border-slate-200 bg-white text-slate-800 hover:border-brand-300 hover:bg-brand-50',
                    )}
                  >
                    {formatMoney(usd * MICROS_PER_USD, 'USD', locale, { wholeWithoutCents: true })}
                  </button>
                );
              })}
            </div>
          </fieldset>
          <div className="mt-3 sm:mt-4">
            <Label htmlFor={`${id}-amount`}>{t('topup.amount')}</Label>
            <div className="relative">
              <span aria-hidden="true" className="pointer-events-none absolute left-3.5 top-1/2 -translate-y-1/2 text-sm font-semibold text-slate-500">
                $
              </span>
              <Input
                id={`${id}-amount`}
                inputMode="decimal"
                autoComplete="off"
                {...form.register('amount')}
                aria-invalid={error ? true : undefined}
                aria-describedby={`${id}-hint ${id}-error`}
                className="h-12 pl-8 text-base tabular-nums"
              />
            </div>
            <p id={`${id}-hint`} className="mt-1.5 text-xs text-slate-500">
              {t('topup.hint', { min: formatMoney(Math.max(TOPUP_MIN_MICROS, bounds.minMicros), 'USD', locale) })}
            </p>
            <FieldError id={`${id}-error`}>{error}</FieldError>
          </div>
          <div className="mt-3 rounded-xl bg-slate-50 px-4 py-3 text-sm ring-1 ring-inset ring-slate-200 sm:mt-4" aria-live="polite">
            <div className="flex items-center justify-between gap-4">
              <span className="text-slate-600">{t('topup.charged')}</span>
              <span className="text-lg font-bold tabular-nums text-slate-900" data-testid="topup-azn">
                {charged ?? '—'}
              </span>
            </div>
            {method ? (
              <p className="mt-1 text-xs text-slate-500">
                {t('topup.rateOf', { rate: formatNumber(method.rate, locale), currency: method.currency })}
                {method.feeBp > 0 ? ` · ${t('topup.fee', { fee: formatNumber(String(method.feeBp / 100), locale) })}` : null}
              </p>
            ) : null}
            {bonus && bonusRule ? (
              <p className="mt-1 text-xs font-semibold text-emerald-700" data-testid="topup-bonus">
                {t('topup.bonusOf', { amount: formatMoney(bonus.bonusMicros, 'USD', locale), percent: percentText(bonusRule.percentBp, locale) })}
              </p>
            ) : nextRule ? (
              <p className="mt-1 text-xs text-emerald-700" data-testid="topup-bonus-hint">
                {t('topup.bonusFrom', { min: formatMoney(nextRule.minMicros, 'USD', locale), percent: percentText(nextRule.percentBp, locale) })}
              </p>
            ) : null}
          </div>
          <Button type="submit" size="lg" className="mt-4 w-full sm:mt-5" disabled={invalid || !method}>
            {t('topup.continue')}
          </Button>
        </form>
      ) : (
        <div data-testid="payment-dialog">
          <dl className="divide-y divide-slate-200 rounded-xl border border-slate-200 text-sm">
            <div className="flex items-center justify-between gap-4 px-4 py-3">
              <dt className="text-slate-600">{t('dialog.credited')}</dt>
              <dd className="font-semibold tabular-nums text-slate-900">{input ? formatMoney(input.amountMicros, 'USD', locale) : '—'}</dd>
            </div>
            {stepBonus ? (
              <div className="flex items-center justify-between gap-4 px-4 py-3">
                <dt className="text-slate-600">{t('dialog.bonus')}</dt>
                <dd className="font-semibold tabular-nums text-emerald-700" data-testid="payment-bonus">
                  +{formatMoney(stepBonus.bonusMicros, 'USD', locale)}
                </dd>
              </div>
            ) : null}
            {coupon ? (
              <div className="flex items-center justify-between gap-4 px-4 py-3">
                <dt className="text-slate-600">{t('dialog.coupon', { code: coupon.code })}</dt>
                <dd className="font-semibold tabular-nums text-emerald-700" data-testid="payment-coupon">
                  +{formatMoney(coupon.bonusMicros, 'USD', locale)}
                </dd>
              </div>
            ) : null}
            <div className="flex items-center justify-between gap-4 px-4 py-3">
              <dt className="text-slate-600">{t('dialog.charged')}</dt>
              <dd className="text-lg font-bold tabular-nums text-brand-700">{charged ?? '—'}</dd>
            </div>
          </dl>
          <form
            className="mt-4"
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              void applyCoupon();
            }}
          >
            <Label htmlFor={`${id}-coupon`}>{t('dialog.couponLabel')}</Label>
            <div className="flex gap-2">
              <Input
                id={`${id}-coupon`}
                value={couponText}
                onChange={(e) => {
                  setCouponText(e.target.value);
                  // A changed code is not the one checked.
                  setCoupon(null);
                  setCouponError(null);
                }}
                autoComplete="off"
                autoCapitalize="characters"
                spellCheck={false}
                maxLength={32}
                aria-invalid={couponError ? true : undefined}
                aria-describedby={`${id}-coupon-state`}
                className="h-10 flex-1 uppercase"
                data-testid="coupon-input"
              />
              {coupon ? (
                <Button type="button" variant="outline" onClick={dropCoupon}>
                  {t('dialog.couponRemove')}
                </Button>
              ) : (
                <Button type="submit" variant="outline" disabled={couponText.trim() === '' || couponCheck.isPending}>
                  {couponCheck.isPending ? <Spinner className="size-4" /> : null}
                  {t('dialog.couponApply')}
                </Button>
              )}
            </div>
            <p id={`${id}-coupon-state`} aria-live="polite" className="mt-1 min-h-4 text-xs">
              {couponError ? <span className="text-rose-700">{couponError}</span> : coupon ? <span className="text-emerald-700">{t('dialog.couponApplied', { amount: formatMoney(coupon.bonusMicros, 'USD', locale) })}</span> : null}
            </p>
          </form>
          <p className="mt-3 flex items-start gap-2 text-sm text-slate-600">
            <Lock className="mt-0.5 size-4 shrink-0 text-emerald-600" aria-hidden="true" />
            {t('dialog.secure')}
          </p>
          <p className="mt-2 flex items-start gap-2 text-sm text-slate-600">
            <ExternalLink className="mt-0.5 size-4 shrink-0 text-slate-400" aria-hidden="true" />
            {t('dialog.newTab')}
          </p>
          <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row">
            <Button variant="outline" className="sm:flex-1" onClick={() => setStep('amount')} disabled={topUp.isPending}>
              <ArrowLeft className="size-4" aria-hidden="true" />
              {t('dialog.back')}
            </Button>
            <Button className="sm:flex-[2]" onClick={() => void pay()} disabled={topUp.isPending}>
              {topUp.isPending ? <Spinner className="size-5 border-white/40 border-t-white" /> : <CreditCard className="size-4" aria-hidden="true" />}
              {t('dialog.pay', { amount: charged ?? '' })}
            </Button>
          </div>
        </div>
      )}
    </Dialog>
  );
}
