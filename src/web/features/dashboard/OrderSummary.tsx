import { Info, ShoppingCart, Wallet } from 'lucide-react';
import { useTranslation } from '../../i18n';
import type { PublicService } from '../../../core/contracts/catalog';
import type { Fees } from '../../../core/pricing';
import { Button } from '../../components/ui/Button';
import { Spinner } from '../../components/ui/Spinner';
import { PriceLines } from '../catalog/pages';
import { formatMoney } from '../../lib/format';

export type BlockReason = 'placing' | 'service' | 'active' | 'empty' | 'quantity' | 'issues' | 'balance' | null;

/** Price details, total, the balance after the order, and Buy (disabled with the reason shown). */
export function OrderSummary({
  service,
  fees,
  quantity,
  total,
  balanceMicros,
  locale,
  placing,
  blockedBy,
  onTopUp,
  repricedMicros = null,
  runs = 1,
}: {
  service: PublicService | undefined;
  fees: Fees;
  quantity: string;
  total: number | null;
  balanceMicros: number;
  locale: string;
  placing: boolean;
  blockedBy: BlockReason;
  onTopUp: () => void;
  /** The server's new total after it refused an order whose price had changed. */
  repricedMicros?: number | null;
  /** Drip-feed runs the total covers (1: not a drip-feed). */
  runs?: number;
}) {
  const { t } = useTranslation(['dashboard', 'catalog']);
  const dash = '—';
  const after = total !== null ? balanceMicros - total : null;
  const hint = blockedBy && blockedBy !== 'placing' ? t(`orders.blocked.${blockedBy}`) : null;

  return (
    <aside aria-labelledby="summary-title" className="lg:sticky lg:top-24">
      <div className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6">
        <h3 id="summary-title" className="text-base font-bold text-slate-900">
          {t('catalog:price.title')}
        </h3>
        <PriceLines service={service} fees={fees} quantity={quantity} total={total} runs={runs} locale={locale} totalTestId="order-total" />
        <dl className="mt-4 space-y-2 rounded-xl bg-slate-50 px-4 py-3 text-sm ring-1 ring-inset ring-slate-200">
          <div className="flex items-center justify-between gap-4">
            <dt className="flex items-center gap-2 text-slate-600">
              <Wallet className="size-4 text-slate-400" aria-hidden="true" />
              {t('orders.balance')}
            </dt>
            <dd className="font-semibold tabular-nums text-slate-900">{formatMoney(balanceMicros, 'USD', locale)}</dd>
          </div>
          {after !== null && after < 0 ? (
            // A balance never goes below zero: what is short is what a top-up must bring.
            <div className="flex items-center justify-between gap-4" data-testid="balance-short">
              <dt className="text-slate-600">{t('orders.balanceShort')}</dt>
              <dd className="font-semibold tabular-nums text-rose-600">{formatMoney(-after, 'USD', locale)}</dd>
            </div>
          ) : (
            <div className="flex items-center justify-between gap-4">
              <dt className="text-slate-600">{t('orders.balanceAfter')}</dt>
              <dd className="font-semibold tabular-nums text-slate-900">{after === null ? dash : formatMoney(after, 'USD', locale)}</dd>
            </div>
          )}
        </dl>
        {repricedMicros !== null ? (
          <p role="status" data-testid="price-changed" className="mt-4 rounded-xl bg-amber-50 px-4 py-3 text-sm text-amber-900 ring-1 ring-inset ring-amber-200">
            {t('orders.priceChanged', { amount: formatMoney(repricedMicros, 'USD', locale) })}
          </p>
        ) : null}
        <Button type="submit" size="lg" className="mt-5 w-full" disabled={blockedBy !== null} aria-describedby={hint ? 'buy-hint' : undefined}>
          {placing ? <Spinner className="size-5 border-white/40 border-t-white" /> : <ShoppingCart className="size-5" aria-hidden="true" />}
          {placing ? t('orders.placing') : t('orders.buy')}
        </Button>
        {hint ? (
          <p id="buy-hint" role="status" className="mt-3 flex items-start gap-2 text-sm text-slate-600" data-testid="buy-hint">
            <Info className={`mt-0.5 size-4 shrink-0 ${blockedBy === 'active' || blockedBy === 'balance' ? 'text-amber-600' : 'text-slate-400'}`} aria-hidden="true" />
            <span>{hint}</span>
          </p>
        ) : null}
        {blockedBy === 'balance' ? (
          <Button variant="secondary" className="mt-3 w-full" onClick={onTopUp}>
            {t('balance.topUp')}
          </Button>
        ) : null}
      </div>
    </aside>
  );
}
