import { useTranslation } from '../../i18n';
import type { PublicService } from '../../../core/contracts/catalog';
import type { Fees } from '../../../core/pricing';
import { parseQuantity, unitPrice } from './orderForm';
import { formatMoney, formatMoneyDecimal, formatNumber } from '../../lib/format';

const dash = '—';

/**
 * The price lines of an order (docs/rules.md#orders): unit price, quantity, the base fee and the
 * service fee when there are any, then the total. When `fees` carry the signed-in customer's
 * discount (docs/rules.md#discounts), the unit price is theirs, with the list price beside it and
 * the discount on a line of its own. The catalogue's price summary and the dashboard's
 * order summary show them alike; `totalTestId` tells their totals apart. A drip-feed of `runs` runs
 * shows the quantity of one run, then runs × quantity = the quantity of all runs beside the total
 * of all runs (each run costs one order of the quantity, its order fee included).
 */
export function PriceLines({
  service,
  fees,
  quantity,
  total,
  locale,
  unitTestId,
  totalTestId,
  runs = 1,
}: {
  service: PublicService | undefined;
  fees: Fees;
  quantity: string;
  total: number | null;
  locale: string;
  unitTestId?: string;
  totalTestId: string;
  /** Drip-feed runs the total covers (1: not a drip-feed). */
  runs?: number;
}) {
  const { t } = useTranslation('catalog');
  const unit = service ? unitPrice(service, fees) : null;
  const count = parseQuantity(quantity);
  const discount = Number(fees.discountPercent) > 0 ? String(fees.discountPercent) : null;
  const listUnit = discount && service ? unitPrice(service, { serviceFeePercent: fees.serviceFeePercent, baseFee: fees.baseFee }) : null;
  const per = formatNumber(unit?.per ?? 1000, locale);
  const drip = Number.isSafeInteger(runs) && runs > 1 && service && Number.isSafeInteger(count) ? runs : null;
  return (
    <>
      <dl className="mt-4 space-y-3 text-sm">
        <div className="flex items-baseline justify-between gap-4">
          <dt className="text-slate-600">{discount ? t('yourPrice.perUnit', { per }) : t('price.perUnit', { per })}</dt>
          <dd className="text-right">
            <span data-testid={unitTestId} className="font-semibold tabular-nums text-slate-900">
              {unit ? formatMoneyDecimal(unit.usd, 'USD', locale) : dash}
            </span>
            {listUnit && listUnit.usd !== unit?.usd ? (
              <span data-testid="list-price" className="block text-xs text-slate-500">
                <s>{t('yourPrice.listPrice', { price: formatMoneyDecimal(listUnit.usd, 'USD', locale) })}</s>
              </span>
            ) : null}
          </dd>
        </div>
        {discount ? (
          <div className="flex items-baseline justify-between gap-4">
            <dt className="text-slate-600">{t('yourPrice.discount')}</dt>
            <dd data-testid="your-discount" className="rounded-md bg-emerald-50 px-2 py-0.5 text-xs font-semibold text-emerald-800 ring-1 ring-emerald-200 ring-inset">
              {t('yourPrice.off', { percent: formatNumber(discount, locale) })}
            </dd>
          </div>
        ) : null}
        <div className="flex items-baseline justify-between gap-4">
          <dt className="text-slate-600">{drip ? t('price.quantityPerRun') : t('price.quantity')}</dt>
          <dd className="font-semibold tabular-nums text-slate-900">{service && Number.isSafeInteger(count) ? formatNumber(count, locale) : dash}</dd>
        </div>
        {drip ? (
          <div className="flex items-baseline justify-between gap-4">
            <dt className="text-slate-600">{t('price.totalQuantity')}</dt>
            <dd data-testid="total-quantity" className="text-right font-semibold tabular-nums text-slate-900">
              {t('price.runsTimes', { runs: formatNumber(drip, locale), quantity: formatNumber(count, locale), total: formatNumber(drip * count, locale) })}
            </dd>
          </div>
        ) : null}
        {Number(fees.baseFee) > 0 ? (
          <div className="flex items-baseline justify-between gap-4">
            <dt className="text-slate-600">{drip ? t('price.baseFeePerRun') : t('price.baseFee')}</dt>
            <dd className="font-semibold tabular-nums text-slate-900">{formatMoneyDecimal(String(fees.baseFee), 'USD', locale)}</dd>
          </div>
        ) : null}
        {Number(fees.serviceFeePercent) > 0 ? <p className="text-xs text-slate-500">{t('price.serviceFeeIncluded', { percent: fees.serviceFeePercent })}</p> : null}
      </dl>
      <div className="mt-5 flex items-end justify-between gap-4 border-t border-slate-200 pt-5">
        <span className="text-sm font-semibold text-slate-900">
          {t('price.total')}
          {drip ? <span className="block text-xs font-normal text-slate-600">{t('price.totalForRuns', { runs: formatNumber(drip, locale) })}</span> : null}
        </span>
        <output data-testid={totalTestId} aria-live="polite" className="text-3xl font-extrabold tracking-tight tabular-nums text-brand-700">
          {total === null ? dash : formatMoney(total, 'USD', locale)}
        </output>
      </div>
    </>
  );
}
