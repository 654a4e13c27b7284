import { zodResolver } from '@hookform/resolvers/zod';
import { AlertTriangle, CheckCircle2, ListChecks, XCircle } from 'lucide-react';
import { useMemo, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from '../../lib/toast';
import { massOrderInputSchema, type MassOrderResult } from '../../../core/contracts/massOrder';
import { LOCALES } from '../../../core/i18n';
import { isErrorCode } from '../../../core/errors';
import { MASS_ORDER_MAX_LINES } from '../../../core/massOrder';
import { platformName } from '../../lib/platformName';
import { useTranslation, type TFunction } from '../../i18n';
import { Button } from '../../components/ui/Button';
import { Label, Textarea } from '../../components/ui/Input';
import { Spinner } from '../../components/ui/Spinner';
import { TableHead } from '../../components/ui/Table';
import { cn } from '../../components/ui/cn';
import { formatMoney, formatNumber } from '../../lib/format';
import { useLanguage } from '../../lib/language';
import { useServices } from '../catalog';
import { issueMessage, useCustomerFees } from '../catalog/pages';
import { newIdempotencyKey } from './keys';
import { useDashboardCache } from './cache';
import { api, ApiError, timed } from '../../lib/api';
import { previewMassOrder, type MassLineProblem } from './massOrder';
import { attemptFor, isRetryable, type OrderAttempt } from './orderAttempt';
import { errorText } from '../../lib/errorText';

const EXAMPLE = '1203|https://www.instagram.com/artim|1000';

function problemText(t: TFunction, problem: MassLineProblem, platform: string, serviceId: string, locale: string): string {
  switch (problem.kind) {
    case 'format':
      return t('order-tools:mass.problem.format');
    case 'service':
      return t('order-tools:mass.problem.service', { id: serviceId });
    case 'params':
      return t('order-tools:mass.problem.params');
    case 'duplicate':
      return t('order-tools:mass.problem.duplicate', { line: problem.line });
    case 'price':
      return t('order-tools:mass.problem.price');
    case 'issue':
      return issueMessage(t, problem.issue, platform, [], locale);
  }
}

/** A refused line of the server's answer, worded like the dashboard's other refusals. */
function refusalText(t: TFunction, error: { code: string; details?: Record<string, unknown> }): string {
  if (error.code === 'VALIDATION_FAILED' && error.details?.reason === 'format') return t('order-tools:mass.problem.format');
  return errorText(t, new ApiError(isErrorCode(error.code) ? error.code : 'INTERNAL', 0, error.details), 'dashboard');
}

/**
 * The dashboard's mass order (docs/rules.md#orders): one order per line, `service_id|link|quantity`.
 * Each line is checked and priced as it is typed (the order form's rules and price), the total
 * and the balance after are shown, and one confirmation places them all. A retried submission
 * of the same text keeps its batch key, so the server never places a line twice.
 */
export function MassOrderTab({ balanceMicros, onTopUp, onPlaced }: { balanceMicros: number; onTopUp: () => void; onPlaced: () => void }) {
  const { t } = useTranslation(['order-tools', 'dashboard', 'catalog']);
  const lang = useLanguage();
  const locale = LOCALES[lang];
  const cache = useDashboardCache();
  const list = useServices(lang);
  // The signed-in customer's own prices: the list's fees with their discount.
  const fees = useCustomerFees(list.data?.fees);
  const byId = useMemo(() => new Map((list.data?.services ?? []).map((s) => [s.id, s])), [list.data]);
  // The mass order contract's text; the batch key is added per submission.
  const form = useForm({ resolver: zodResolver(massOrderInputSchema.pick({ text: true })), defaultValues: { text: '' } });
  const text = form.watch('text');
  const placing = form.formState.isSubmitting;
  const [confirming, setConfirming] = useState(false);
  const [result, setResult] = useState<MassOrderResult | null>(null);
  const attempt = useRef<OrderAttempt | null>(null);

  const preview = useMemo(() => (fees ? previewMassOrder(text, byId, fees) : null), [text, byId, fees]);
  const after = preview ? balanceMicros - preview.totalMicros : null;
  const short = after !== null && after < 0;
  const blocked = !preview || preview.valid === 0 || preview.tooMany || short || placing;

  const place = form.handleSubmit(async ({ text }) => {
    if (blocked) return;
    // The same text retried after no definite answer keeps its batch key.
    attempt.current = attemptFor(attempt.current, text, newIdempotencyKey);
    try {
      const answer = await timed((o) => api.orders.mass.$post({ json: { batchKey: attempt.current!.key, text } }, o));
      attempt.current = null;
      setResult(answer);
      setConfirming(false);
      if (answer.placed > 0) toast.success(t('mass.placedToast', { count: answer.placed }));
      onPlaced();
    } catch (err) {
      if (!isRetryable(err)) attempt.current = null;
      // More lines than the shop lets one customer order in a minute: said with the shop's number.
      const tooMany = err instanceof ApiError && err.code === 'VALIDATION_FAILED' && err.details?.reason === 'too_many' && typeof err.details.max === 'number';
      toast.error(t('mass.failed'), { description: tooMany ? t('mass.tooMany', { max: err.details!.max as number }) : errorText(t, err, 'dashboard') });
    } finally {
      cache.reload();
    }
  });

  if (result) {
    return (
      <section aria-labelledby="mass-result-title" className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6" data-testid="mass-result">
        <h3 id="mass-result-title" className="text-base font-bold text-slate-900">
          {t('mass.resultTitle', { placed: result.placed, total: result.lines.length })}
        </h3>
        <p className="mt-1 text-sm text-slate-600">{t('mass.resultCharged', { amount: formatMoney(result.chargedMicros, 'USD', locale) })}</p>
        <ul className="mt-4 divide-y divide-slate-100 text-sm">
          {result.lines.map((l) => (
            <li key={l.line} className="flex items-start gap-3 py-2" data-line={l.line} data-ok={l.ok}>
              {l.ok ? <CheckCircle2 className="mt-0.5 size-4 shrink-0 text-emerald-600" aria-hidden="true" /> : <XCircle className="mt-0.5 size-4 shrink-0 text-rose-600" aria-hidden="true" />}
              <span className="w-16 shrink-0 text-slate-500">{t('mass.line', { line: l.line })}</span>
              {l.ok ? (
                <span>
                  <span className="font-mono font-semibold text-slate-900" data-order-number>
                    {l.order.number}
                  </span>{' '}
                  <span className="text-slate-600">· {formatMoney(l.order.chargeMicros, 'USD', locale)}</span>
                </span>
              ) : (
                <span className="text-rose-700" data-error={l.error.code}>
                  {refusalText(t, l.error)}
                </span>
              )}
            </li>
          ))}
        </ul>
        <Button
          className="mt-4"
          variant="outline"
          size="sm"
          onClick={() => {
            setResult(null);
            form.reset();
          }}
        >
          {t('mass.again')}
        </Button>
      </section>
    );
  }

  return (
    <section aria-labelledby="mass-title" className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_20rem]" data-testid="mass-order">
      <div className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6">
        <h3 id="mass-title" className="text-base font-bold text-slate-900">
          {t('mass.title')}
        </h3>
        <p className="mt-1 text-sm text-slate-600">{t('mass.intro', { max: MASS_ORDER_MAX_LINES })}</p>
        <Label htmlFor="mass-text" className="mt-4">
          {t('mass.label')}
        </Label>
        <Textarea
          id="mass-text"
          data-field="mass"
          rows={8}
          spellCheck={false}
          autoComplete="off"
          {...form.register('text', { onChange: () => setConfirming(false) })}
          placeholder={EXAMPLE}
          disabled={placing}
          aria-describedby="mass-hint"
          className="font-mono text-xs"
        />
        <p id="mass-hint" className="mt-1.5 text-xs text-slate-500">
          {t('mass.hint', { example: EXAMPLE })}
        </p>

        {list.isPending ? <Spinner label={t('mass.loading')} className="mt-4 size-6" /> : null}
        {list.isError ? (
          <p role="alert" className="mt-4 flex items-center gap-2 text-sm text-rose-700">
            <AlertTriangle className="size-4" aria-hidden="true" />
            {t('mass.catalogError')}
          </p>
        ) : null}

        {preview && preview.lines.length > 0 ? (
          <div className="mt-5 overflow-x-auto">
            <table className="w-full text-left text-sm" data-testid="mass-preview">
              <caption className="sr-only">{t('mass.previewCaption')}</caption>
              <TableHead
                className="text-xs font-semibold uppercase tracking-wide text-slate-500"
                cellClassName="py-2"
                columns={[
                  { label: t('mass.col.line'), className: 'pr-3' },
                  { label: t('mass.col.order'), className: 'pr-3' },
                  { label: t('mass.col.price'), className: 'text-right' },
                ]}
              />
              <tbody className="divide-y divide-slate-100">
                {preview.lines.map((l) => (
                  <tr key={l.line} data-line={l.line} data-ok={l.problem === null} className="align-top">
                    <td className="py-2 pr-3 tabular-nums text-slate-500">{l.line}</td>
                    <td className="max-w-0 py-2 pr-3">
                      {l.service ? (
                        <span className="block truncate font-medium text-slate-900">
                          {l.service.name} <span className="font-normal text-slate-500">· {platformName(t, l.service.platform)}</span>
                        </span>
                      ) : null}
                      <span className="block truncate font-mono text-xs text-slate-600">{l.link ?? l.text}</span>
                      {l.quantity !== undefined && l.service ? <span className="block text-xs text-slate-500">{t('mass.quantity', { quantity: formatNumber(l.quantity, locale) })}</span> : null}
                      {l.problem ? (
                        <span className="mt-0.5 block text-xs text-rose-700" data-problem={l.problem.kind}>
                          {problemText(t, l.problem, l.service?.platform ?? '', l.text.split('|')[0] ?? '', locale)}
                        </span>
                      ) : null}
                    </td>
                    <td className="whitespace-nowrap py-2 text-right font-semibold tabular-nums text-slate-900">
                      {l.totalMicros !== null ? formatMoney(l.totalMicros, 'USD', locale) : '—'}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
      </div>

      <aside aria-labelledby="mass-summary-title" className="lg:sticky lg:top-24 lg:self-start">
        <div className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6">
          <h3 id="mass-summary-title" className="flex items-center gap-2 text-base font-bold text-slate-900">
            <ListChecks className="size-5 text-brand-600" aria-hidden="true" />
            {t('mass.summary')}
          </h3>
          <dl className="mt-4 space-y-3 text-sm">
            <div className="flex justify-between gap-4">
              <dt className="text-slate-600">{t('mass.valid')}</dt>
              <dd className="font-semibold tabular-nums" data-testid="mass-valid">
                {preview ? `${preview.valid} / ${preview.lines.length}` : '—'}
              </dd>
            </div>
            <div className="flex justify-between gap-4">
              <dt className="text-slate-600">{t('mass.total')}</dt>
              <dd className="font-semibold tabular-nums" data-testid="mass-total" data-micros={preview?.totalMicros ?? ''}>
                {preview ? formatMoney(preview.totalMicros, 'USD', locale) : '—'}
              </dd>
            </div>
            <div className="flex justify-between gap-4">
              <dt className="text-slate-600">{t('mass.balance')}</dt>
              <dd className="tabular-nums">{formatMoney(balanceMicros, 'USD', locale)}</dd>
            </div>
            <div className="flex justify-between gap-4 border-t border-slate-100 pt-3">
              <dt className="text-slate-600">{t('mass.after')}</dt>
              <dd className={cn('font-semibold tabular-nums', short ? 'text-rose-700' : 'text-slate-900')} data-testid="mass-after">
                {after !== null ? formatMoney(after, 'USD', locale) : '—'}
              </dd>
            </div>
          </dl>
          {preview?.tooMany ? <p className="mt-3 text-sm text-rose-700">{t('mass.tooMany', { max: MASS_ORDER_MAX_LINES })}</p> : null}
          {short ? (
            <p className="mt-3 text-sm text-rose-700">
              {t('mass.short')}{' '}
              <button type="button" className="font-semibold underline" onClick={onTopUp}>
                {t('mass.topUp')}
              </button>
            </p>
          ) : null}
          {confirming && !blocked ? (
            <div className="mt-4 rounded-xl bg-brand-50 p-3" role="group" aria-labelledby="mass-confirm-text">
              <p id="mass-confirm-text" className="text-sm font-medium text-slate-900">
                {t('mass.confirmText', { count: preview!.valid, amount: formatMoney(preview!.totalMicros, 'USD', locale) })}
              </p>
              <div className="mt-3 flex gap-2">
                <Button size="sm" onClick={() => void place()} disabled={placing} aria-busy={placing} data-testid="mass-confirm">
                  {placing ? t('mass.placing') : t('mass.confirm')}
                </Button>
                <Button size="sm" variant="outline" onClick={() => setConfirming(false)} disabled={placing}>
                  {t('mass.back')}
                </Button>
              </div>
            </div>
          ) : (
            <Button className="mt-4 w-full" disabled={blocked} onClick={() => setConfirming(true)} data-testid="mass-place">
              {t('mass.place', { count: preview?.valid ?? 0 })}
            </Button>
          )}
        </div>
      </aside>
    </section>
  );
}
