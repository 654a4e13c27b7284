import { CreditCard, Headphones, ShieldCheck, ShoppingCart } from 'lucide-react';
import { memo } from 'react';
import { useTranslation } from '../../i18n';
import type { PublicService } from '../../../core/contracts/catalog';
import type { Fees } from '../../../core/pricing';
import { orderTotal, parseQuantity } from './orderForm';
import { PriceLines } from './PriceLines';

/** What the shop promises, under Buy Now. */
const TRUST = [
  [ShieldCheck, 'trust.guarantee'],
  [CreditCard, 'trust.payment'],
  [Headphones, 'trust.support'],
] as const;

/**
 * Price details beside the form: the unit price (per 1000, per 10 for comment services) and the
 * total, both with the current fees and the same rule the server charges by; then Buy Now.
 */
export const PriceSummary = memo(function PriceSummary({
  service,
  fees,
  quantity,
  quantityValid,
  runs = 1,
  locale,
  signedIn,
  error,
}: {
  service: PublicService | undefined;
  fees: Fees;
  quantity: string;
  quantityValid: boolean;
  /** Drip-feed runs (the total covers all of them); NaN while they are not valid. */
  runs?: number;
  locale: string;
  signedIn: boolean;
  /** Why the last Buy Now did not go ahead, when the fields cannot say it. */
  error?: string;
}) {
  const { t } = useTranslation('catalog');
  const perRun = service && quantityValid && Number.isSafeInteger(runs) ? orderTotal(service, parseQuantity(quantity), fees) : null;
  const total = perRun === null ? null : perRun * runs;

  return (
    <aside aria-labelledby="price-title" className="lg:sticky lg:top-24">
      <div className="overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm">
        <div className="p-5 sm:p-6">
          <h2 id="price-title" className="text-base font-bold text-slate-900">
            {t('price.title')}
          </h2>
          <PriceLines service={service} fees={fees} quantity={quantity} total={total} runs={runs} locale={locale} unitTestId="unit-price" totalTestId="total-price" />
          <button
            type="submit"
            className="mt-5 inline-flex h-12 w-full items-center justify-center gap-2 rounded-xl bg-brand-600 px-6 text-base font-semibold text-white shadow-sm transition-colors hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2"
          >
            <ShoppingCart className="size-5" aria-hidden="true" />
            {t('buy')}
          </button>
          {error ? (
            <p role="alert" className="mt-3 rounded-lg bg-rose-50 px-3 py-2 text-center text-sm text-rose-700">
              {error}
            </p>
          ) : null}
          <p className="mt-3 text-center text-xs leading-relaxed text-slate-500">{signedIn ? t('buyHint') : t('buyHintGuest')}</p>
        </div>
        <ul className="grid grid-cols-3 divide-x divide-slate-200 border-t border-slate-200 bg-slate-50 text-center text-xs font-medium text-slate-600">
          {TRUST.map(([Icon, key]) => (
            <li key={key} className="flex flex-col items-center gap-1 px-2 py-3">
              <Icon className="size-4 text-emerald-600" aria-hidden="true" />
              {t(key)}
            </li>
          ))}
        </ul>
      </div>
    </aside>
  );
});
