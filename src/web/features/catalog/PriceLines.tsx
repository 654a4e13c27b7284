import { useTranslation } from '../../i18n';
import type { PublicService, ServiceList } from '../../../core/contracts/catalog';
import { parseQuantity, unitPrice } from './orderForm';
import { formatMoney, formatMoneyDecimal, formatNumber } from '../../lib/format';

const dash = '—';

/**
 * The price lines of an order (docs/rules.md#orders): unit price, quantity, the base fee and the
 * service fee when there are any, then the total. The catalogue's price summary and the dashboard's
 * order summary show them alike; `totalTestId` tells their totals apart.
 */
export function PriceLines({
  service,
  fees,
  quantity,
  total,
  locale,
  unitTestId,
  totalTestId,
}: {
  service: PublicService | undefined;
  fees: ServiceList['fees'];
  quantity: string;
  total: number | null;
  locale: string;
  unitTestId?: string;
  totalTestId: string;
}) {
  const { t } = useTranslation('catalog');
  const unit = service ? unitPrice(service, fees) : null;
  const count = parseQuantity(quantity);
  return (
    <>
      <dl className="mt-4 space-y-3 text-sm">
        <div className="flex items-baseline justify-between gap-4">
          <dt className="text-slate-600">{t('price.perUnit', { per: formatNumber(unit?.per ?? 1000, locale) })}</dt>
          <dd data-testid={unitTestId} className="font-semibold tabular-nums text-slate-900">
            {unit ? formatMoneyDecimal(unit.usd, 'USD', locale) : dash}
          </dd>
        </div>
        <div className="flex items-baseline justify-between gap-4">
          <dt className="text-slate-600">{t('price.quantity')}</dt>
          <dd className="font-semibold tabular-nums text-slate-900">{service && Number.isSafeInteger(count) ? formatNumber(count, locale) : dash}</dd>
        </div>
        {Number(fees.baseFee) > 0 ? (
          <div className="flex items-baseline justify-between gap-4">
            <dt className="text-slate-600">{t('price.baseFee')}</dt>
            <dd className="font-semibold tabular-nums text-slate-900">{formatMoneyDecimal(String(fees.baseFee), 'USD', locale)}</dd>
          </div>
        ) : null}
        {Number(fees.serviceFeePercent) > 0 ? <p className="text-xs text-slate-500">{t('price.serviceFeeIncluded', { percent: fees.serviceFeePercent })}</p> : null}
      </dl>
      <div className="mt-5 flex items-end justify-between gap-4 border-t border-slate-200 pt-5">
        <span className="text-sm font-semibold text-slate-900">{t('price.total')}</span>
        <output data-testid={totalTestId} aria-live="polite" className="text-3xl font-extrabold tracking-tight tabular-nums text-brand-700">
          {total === null ? dash : formatMoney(total, 'USD', locale)}
        </output>
      </div>
    </>
  );
}
