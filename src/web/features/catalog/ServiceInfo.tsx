import type { UseQueryResult } from '@tanstack/react-query';
import { Check, X } from 'lucide-react';
import { memo, type ReactNode } from 'react';
import { useTranslation } from '../../i18n';
import type { PublicService, ServiceDetail } from '../../../core/contracts/catalog';
import type { Fees } from '../../../core/pricing';
import { Spinner } from '../../components/ui/Spinner';
import { unitPrice } from './orderForm';
import { formatMoneyDecimal, formatNumber } from '../../lib/format';
import { LIFETIME_REFILL_DAYS } from '../../../core/refill';
import { durationText } from './figures';
import { generatedDescription } from './serviceDescription';

/** One thing the service allows or not, said in words with a mark beside them. */
function Ability({ name, available, label, children }: { name: string; available: boolean; label: string; children: ReactNode }) {
  const Mark = available ? Check : X;
  return (
    <div
      data-ability={name}
      data-available={available}
      className={`flex items-center gap-1.5 rounded-lg px-2.5 py-1 ring-1 ring-inset ${available ? 'bg-white text-slate-800 ring-emerald-200' : 'bg-slate-50 text-slate-600 ring-slate-200'}`}
    >
      <Mark className={`size-4 shrink-0 ${available ? 'text-emerald-700' : 'text-slate-500'}`} aria-hidden="true" />
      <dt className="font-medium">{label}:</dt>
      <dd className="font-semibold">{children}</dd>
    </div>
  );
}

/**
 * How the service usually runs (docs/rules.md#service-figures): its usual start, average time and
 * completion rate over its last finished orders, each "not enough orders yet" until enough tell it.
 */
function ServiceFigures({ service, locale }: { service: PublicService; locale: string }) {
  const { t } = useTranslation('catalog');
  const f = service.figures;
  const none = t('info.figuresNone');
  const facts = [
    { key: 'start', label: t('info.figuresStart'), value: f?.startMinutes != null ? durationText(t, f.startMinutes, locale) : null },
    { key: 'complete', label: t('info.figuresComplete'), value: f?.completeMinutes != null ? durationText(t, f.completeMinutes, locale) : null },
    { key: 'rate', label: t('info.figuresRate'), value: f?.completionRate != null ? t('info.figuresRateValue', { rate: formatNumber(f.completionRate, locale) }) : null },
  ];
  return (
    <dl className="mt-3 flex flex-wrap gap-x-6 gap-y-2 text-sm" aria-label={t('info.figures')} data-figures={f ? 'known' : 'none'}>
      {facts.map((x) => (
        <div key={x.key} className="flex gap-1.5" data-figure={x.key}>
          <dt className="text-slate-600">{x.label}:</dt>
          <dd className={x.value === null ? 'text-slate-600' : 'font-semibold tabular-nums text-slate-800'}>{x.value ?? none}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * The chosen service: name, bounds, unit price, whether a completed order can be refilled (and for
 * how long) and a running one cancelled, how it usually runs, then its description (one made from
 * its facts in the page's language, and the provider's own, in its words, where it gave one) and
 * example once loaded.
 */
/** What the order form knows of the chosen service's detail (its description, example and params) as it loads. */
export type ServiceDetailState = Pick<UseQueryResult<ServiceDetail>, 'data' | 'isPending' | 'isError'>;

export const ServiceInfo = memo(function ServiceInfo({
  service,
  detail,
  fees,
  locale,
}: {
  service: PublicService;
  detail: ServiceDetailState;
  fees: Fees;
  locale: string;
}) {
  const { t } = useTranslation('catalog');
  const unit = unitPrice(service, fees);
  const facts = [
    { key: 'id', value: `#${service.id}` },
    { key: 'min', value: formatNumber(service.min, locale) },
    { key: 'max', value: formatNumber(service.max, locale) },
    ...(service.step > 1 ? [{ key: 'step', value: formatNumber(service.step, locale) }] : []),
  ];
  const refillDays = service.refillDays ?? null;
  const refillText = !service.refill
    ? t('info.refillNo')
    : refillDays === null
      ? t('info.refillYes')
      : refillDays >= LIFETIME_REFILL_DAYS
        ? t('info.refillLifetime')
        : t('info.refillDays', { count: refillDays, days: formatNumber(refillDays, locale) });
  return (
    <section aria-labelledby="service-info-title" className="rounded-xl bg-brand-50/50 p-4 ring-1 ring-inset ring-brand-100 sm:p-5">
      <div className="flex flex-col items-start gap-2 sm:flex-row sm:justify-between sm:gap-4">
        <h3 id="service-info-title" className="min-w-0 text-base font-bold break-words text-slate-900 sm:flex-1">
          {service.name}
        </h3>
        {unit ? (
          <p className="shrink-0 rounded-lg bg-white px-2.5 py-1 text-sm font-semibold text-brand-700 ring-1 ring-brand-100">
            {t('service.optionPrice', { price: formatMoneyDecimal(unit.usd, 'USD', locale), per: formatNumber(unit.per, locale) })}
          </p>
        ) : null}
      </div>
      <dl className="mt-3 flex flex-wrap gap-x-6 gap-y-2 text-sm">
        {facts.map((f) => (
          <div key={f.key} className="flex gap-1.5">
            <dt className="text-slate-600">{t(`info.${f.key}`)}:</dt>
            <dd className="font-semibold tabular-nums text-slate-800">{f.value}</dd>
          </div>
        ))}
      </dl>
      <dl className="mt-3 flex flex-wrap gap-2 text-sm" aria-label={t('info.abilities')}>
        <Ability name="refill" available={!!service.refill} label={t('info.refill')}>
          {refillText}
        </Ability>
        <Ability name="cancel" available={!!service.cancel} label={t('info.cancel')}>
          {service.cancel ? t('info.cancelYes') : t('info.cancelNo')}
        </Ability>
      </dl>
      <ServiceFigures service={service} locale={locale} />
      <div className="mt-4 border-t border-brand-100 pt-4 text-sm text-slate-700">
        {detail.isPending ? (
          <Spinner label={t('info.loading')} className="size-5" />
        ) : detail.isError || !detail.data ? (
          <p className="text-slate-600">{t('info.failed')}</p>
        ) : (
          <div className="space-y-3">
            {/* The provider writes in English: an az or tr page reads one made from the facts first, the provider's below. */}
            {!detail.data.description || !locale.startsWith('en') ? (
              <div>
                <h4 className="font-semibold text-slate-900">{t('info.description')}</h4>
                <p className="mt-1 whitespace-pre-line leading-relaxed break-words" data-description="generated">
                  {generatedDescription(t, service, locale)}
                </p>
              </div>
            ) : null}
            {detail.data.description ? (
              <div>
                <h4 className="font-semibold text-slate-900">{locale.startsWith('en') ? t('info.description') : t('info.providerDescription')}</h4>
                <p className="mt-1 whitespace-pre-line leading-relaxed break-words" data-description="own">
                  {detail.data.description}
                </p>
              </div>
            ) : null}
            {detail.data.example ? (
              <div>
                <h4 className="font-semibold text-slate-900">{t('info.example')}</h4>
                <p className="mt-1 break-all font-mono text-xs text-slate-600">{detail.data.example}</p>
              </div>
            ) : null}
          </div>
        )}
      </div>
    </section>
  );
});
