import { CheckCircle2, CircleDashed, Clock, ExternalLink, PackageSearch, Search, XCircle } from 'lucide-react';
import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from '../../i18n';
import { useSearchParams } from 'react-router';
import type { TrackResult } from '../../../core/contracts/orders';
import { LOCALES } from '../../../core/i18n';
import { Button } from '../../components/ui/Button';
import { cn } from '../../components/ui/cn';
import { FieldError, Input, Label } from '../../components/ui/Input';
import { Spinner } from '../../components/ui/Spinner';
import { useLanguage } from '../../lib/language';
import { api, ApiError, timed } from '../../lib/api';
import { trackKind, type TrackKind } from './trackKind';
import { formatMoney, formatNumber } from '../../lib/format';
import { errorText } from '../../lib/errorText';
import { orderDelayText } from '../../lib/orderDelay';
import { toast } from '../../lib/toast';

/**
 * What the server found for the number in the address (TrackPage's loader), handed to the view as
 * its first state (JSON, as an island's props are): the result, or the refusal as the API gave it.
 */
export type TrackLookup =
  | { number: string; result: TrackResult }
  | { number: string; error: { code: ApiError['code']; status: number; details?: Record<string, unknown> } };

const KIND_STYLE: Record<TrackKind, { badge: string; icon: typeof CheckCircle2; iconClass: string }> = {
  success: { badge: 'bg-emerald-100 text-emerald-800 ring-emerald-200', icon: CheckCircle2, iconClass: 'bg-emerald-50 text-emerald-600' },
  partial: { badge: 'bg-amber-100 text-amber-900 ring-amber-200', icon: CircleDashed, iconClass: 'bg-amber-50 text-amber-700' },
  progress: { badge: 'bg-sky-100 text-sky-800 ring-sky-200', icon: Clock, iconClass: 'bg-sky-50 text-sky-600' },
  failed: { badge: 'bg-rose-100 text-rose-800 ring-rose-200', icon: XCircle, iconClass: 'bg-rose-50 text-rose-600' },
};

/**
 * /track?order=…: public order tracking by order number, without personal data. `initial` is the
 * server's lookup of the address's number: shown as rendered, not asked for again.
 */
export function TrackView({ initial }: { initial?: TrackLookup }) {
  const { t } = useTranslation('tracking');
  const lang = useLanguage();
  const locale = LOCALES[lang];
  const id = useId();
  const [params, setParams] = useSearchParams();
  const fromAddress = (params.get('order') ?? '').trim();
  // Any number that is not blank is looked up, so that one the contract's `orderNumberSchema`
  // would refuse is answered by the server as not found (docs/rules.md#tracking). A blank search
  // is refused in place; the message goes once something is typed.
  const [order, setOrder] = useState(fromAddress);
  const [missing, setMissing] = useState(false);
  const [loading, setLoading] = useState(false);
  const failureText = useCallback(
    (err: unknown) => (err instanceof ApiError && (err.code === 'ORDER_NOT_FOUND' || err.code === 'NOT_FOUND') ? t('notFound') : errorText(t, err, 'tracking')),
    [t],
  );
  const [result, setResult] = useState<TrackResult | null>(initial && 'result' in initial ? initial.result : null);
  const [failure, setFailure] = useState<string | null>(() =>
    initial && 'error' in initial ? failureText(new ApiError(initial.error.code, initial.error.status, initial.error.details)) : null,
  );
  const searched = useRef<string | null>(initial?.number ?? null);

  const search = useCallback(
    async (raw: string) => {
      const number = raw.trim().toUpperCase();
      if (!number) return;
      searched.current = number;
      setLoading(true);
      setFailure(null);
      try {
        const found = await timed((o) => api.track[':number'].$get({ param: { number: encodeURIComponent(number) } }, o));
        if (searched.current === number) setResult(found);
      } catch (err) {
        if (searched.current !== number) return;
        setResult(null);
        const text = failureText(err);
        setFailure(text);
        // The notice library loads with the notice (lib/toast.ts), not with this page.
        toast.error(text);
      } finally {
        if (searched.current === number) setLoading(false);
      }
    },
    [failureText],
  );

  // ?order= fills the field and searches (the payment page and the dashboard link here), unless
  // the server has looked that number up already.
  useEffect(() => {
    if (!fromAddress) return;
    setOrder(fromAddress);
    if (searched.current !== fromAddress.toUpperCase()) void search(fromAddress);
  }, [fromAddress, search]);

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const number = order.trim();
    if (!number) {
      setMissing(true);
      return;
    }
    if (number.toUpperCase() !== fromAddress.toUpperCase()) {
      setParams({ order: number.toUpperCase() }, { replace: true, preventScrollReset: true });
    }
    void search(number);
  };

  return (
    <main id="main" className="flex-1 bg-slate-50">
      <section className="bg-gradient-to-br from-brand-600 via-brand-500 to-violet-600 text-white">
        <div className="mx-auto max-w-3xl px-4 pb-24 pt-10 text-center sm:pt-14">
          <span className="mx-auto grid size-14 place-items-center rounded-2xl bg-white/15 ring-1 ring-white/25">
            <PackageSearch className="size-7" aria-hidden="true" />
          </span>
          <h1 className="mt-4 text-3xl font-extrabold tracking-tight sm:text-4xl">{t('title')}</h1>
          <p className="mx-auto mt-3 max-w-xl text-brand-50/90">{t('intro')}</p>
        </div>
      </section>

      <div className="mx-auto -mt-14 max-w-3xl px-4 pb-16">
        <form noValidate onSubmit={submit} className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6" role="search">
          <Label htmlFor={`${id}-order`}>
            {t('orderId')} <span aria-hidden="true" className="text-rose-600">*</span>
          </Label>
          <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
            <div className="sm:flex-1">
              <Input
                id={`${id}-order`}
                name="order"
                value={order}
                onChange={(e) => {
                  setOrder(e.target.value);
                  if (missing && e.target.value.trim()) setMissing(false);
                }}
                placeholder="AR-XXXXXXXXXX"
                autoComplete="off"
                spellCheck={false}
                required
                aria-required="true"
                aria-invalid={missing ? true : undefined}
                aria-describedby={`${id}-hint ${id}-error`}
                className="h-12 font-mono uppercase placeholder:normal-case"
              />
              <p id={`${id}-hint`} className="mt-1.5 text-xs text-slate-500">
                {t('hint')}
              </p>
              <FieldError id={`${id}-error`}>{missing ? t('required') : undefined}</FieldError>
            </div>
            <Button type="submit" size="lg" disabled={loading} aria-busy={loading} className="sm:w-40">
              {loading ? <Spinner className="size-5 border-white/40 border-t-white" /> : <Search className="size-4" aria-hidden="true" />}
              {loading ? t('searching') : t('search')}
            </Button>
          </div>
        </form>

        <div aria-live="polite" className="mt-6">
          {result ? <TrackResultCard result={result} locale={locale} /> : null}
          {!result && failure ? (
            <p role="alert" className="flex items-center gap-3 rounded-2xl border border-rose-200 bg-white px-5 py-4 text-sm text-rose-700 shadow-sm" data-testid="track-failure">
              <XCircle className="size-5 shrink-0" aria-hidden="true" />
              {failure}
            </p>
          ) : null}
        </div>
      </div>
    </main>
  );
}

function TrackResultCard({ result, locale }: { result: TrackResult; locale: string }) {
  const { t } = useTranslation('tracking');
  const kind = trackKind(result.status);
  const style = KIND_STYLE[kind];
  const Icon = style.icon;
  const count = (n: number | null) => (n === null ? '—' : formatNumber(n, locale));
  const facts = [
    { key: 'quantity', value: formatNumber(result.quantity, locale) },
    { key: 'startCount', value: count(result.startCount) },
    { key: 'currentCount', value: count(result.currentCount) },
    ...(result.delivered !== null ? [{ key: 'delivered', value: formatNumber(result.delivered, locale) }] : []),
    // Dollars with 2 decimals (docs/rules.md#tracking).
    { key: 'total', value: formatMoney(result.totalMicros, 'USD', locale) },
  ];

  return (
    <article aria-labelledby="track-result-title" className="overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm" data-testid="track-result" data-status={result.status}>
      <header className="flex flex-col gap-3 border-b border-slate-200 p-5 sm:flex-row sm:items-center sm:justify-between sm:p-6">
        <div className="min-w-0">
          <p className="text-xs font-semibold uppercase tracking-wide text-slate-500">{t('result.order')}</p>
          <h2 id="track-result-title" className="font-mono text-xl font-bold text-slate-900">
            {result.number}
          </h2>
          <p className="mt-1 text-sm text-slate-600">{result.serviceName}</p>
        </div>
        <span className={cn('inline-flex items-center self-start rounded-full px-3 py-1 text-sm font-semibold ring-1 ring-inset sm:self-center', style.badge)} data-kind={kind}>
          {t(`status.${result.status}.name`)}
        </span>
      </header>
      <div className="space-y-5 p-5 sm:p-6">
        <div>
          <p className="text-xs font-semibold uppercase tracking-wide text-slate-500">{t('result.url')}</p>
          <a href={result.link} target="_blank" rel="noopener noreferrer nofollow" className="mt-1 inline-flex max-w-full items-center gap-1.5 break-all text-brand-700 hover:underline">
            {result.link}
            <ExternalLink className="size-3.5 shrink-0" aria-hidden="true" />
          </a>
        </div>
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3">
          {facts.map((f) => (
            <div key={f.key} className="rounded-xl bg-slate-50 px-4 py-3 ring-1 ring-inset ring-slate-200">
              <dt className="text-xs text-slate-500">{t(`result.${f.key}`)}</dt>
              <dd className="mt-0.5 text-lg font-bold tabular-nums text-slate-900" data-fact={f.key}>
                {f.value}
              </dd>
            </div>
          ))}
        </dl>
        <div className="flex items-start gap-3 rounded-xl border border-slate-200 p-4">
          <span className={cn('grid size-10 shrink-0 place-items-center rounded-full', style.iconClass)}>
            <Icon className="size-5" aria-hidden="true" />
          </span>
          <div>
            <p className="font-semibold text-slate-900">{t(`status.${result.status}.name`)}</p>
            <p className="text-sm text-slate-600">{t(`status.${result.status}.description`)}</p>
          </div>
        </div>
        {result.delay ? (
          <p className="rounded-xl bg-amber-50 px-4 py-3 text-sm font-medium text-amber-800 ring-1 ring-inset ring-amber-200" data-testid="track-delay">
            {orderDelayText(t, result.delay, locale)}
          </p>
        ) : null}
      </div>
    </article>
  );
}
