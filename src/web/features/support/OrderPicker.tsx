import { Search } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import { SUPPORT_LIMITS } from '../../../core/contracts/support';
import { Input } from '../../components/ui/Input';
import { Spinner } from '../../components/ui/Spinner';
import { formatDate } from '../../lib/format';
import { useTranslation } from '../../i18n';
import { useOwnOrders } from './api';

/**
 * The customer's orders to name in a ticket: a searchable list of check boxes (number, service,
 * link, date), at most `SUPPORT_LIMITS.ticketOrders` chosen.
 */
export function OrderPicker({ value, onChange, invalid, describedBy }: { value: string[]; onChange: (numbers: string[]) => void; invalid?: boolean; describedBy?: string }) {
  const { t, i18n } = useTranslation('support');
  const id = useId();
  const orders = useOwnOrders(true);
  const [q, setQ] = useState('');
  const chosen = new Set(value);
  const full = value.length >= SUPPORT_LIMITS.ticketOrders;
  const shown = useMemo(() => {
    const needle = q.trim().toLowerCase();
    const list = (orders.data ?? []).filter((o) => !o.parentId);
    return needle ? list.filter((o) => `${o.number} ${o.serviceName} ${o.link}`.toLowerCase().includes(needle)) : list;
  }, [orders.data, q]);

  const toggle = (number: string, on: boolean) => onChange(on ? [...value, number] : value.filter((n) => n !== number));

  return (
    <fieldset className="min-w-0 rounded-xl border border-slate-300 p-3" aria-invalid={invalid || undefined} aria-describedby={describedBy}>
      <legend className="px-1 text-sm font-medium text-slate-700">{t('picker.legend')}</legend>
      <div className="relative">
        <label htmlFor={`${id}-q`} className="sr-only">
          {t('picker.search')}
        </label>
        <Search className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-slate-400" aria-hidden="true" />
        <Input id={`${id}-q`} type="search" value={q} onChange={(e) => setQ(e.target.value)} placeholder={t('picker.searchPlaceholder')} className="py-2 pl-9" maxLength={100} />
      </div>
      <p className="mt-2 text-xs text-slate-600" aria-live="polite">
        {t('picker.chosen', { count: value.length, max: SUPPORT_LIMITS.ticketOrders })}
      </p>
      {orders.isPending ? (
        <div className="grid min-h-24 place-items-center">
          <Spinner label={t('picker.loading')} />
        </div>
      ) : orders.isError ? (
        <p role="alert" className="mt-2 text-sm text-rose-700">
          {t('picker.loadFailed')}
        </p>
      ) : shown.length === 0 ? (
        <p className="mt-2 text-sm text-slate-500">{(orders.data ?? []).length ? t('picker.noMatch') : t('picker.none')}</p>
      ) : (
        <ul className="mt-2 max-h-64 space-y-1 overflow-y-auto pr-1" data-testid="order-picker">
          {shown.map((o) => {
            const on = chosen.has(o.number);
            return (
              <li key={o.id}>
                <label className="flex cursor-pointer items-start gap-3 rounded-lg p-2 hover:bg-slate-50 has-[:checked]:bg-brand-50">
                  <input
                    type="checkbox"
                    className="mt-1 size-4 shrink-0 accent-brand-600"
                    checked={on}
                    disabled={!on && full}
                    onChange={(e) => toggle(o.number, e.target.checked)}
                    aria-label={t('picker.orderLabel', { number: o.number, service: o.serviceName })}
                  />
                  <span className="min-w-0 text-sm">
                    <span className="font-mono font-semibold text-slate-900">{o.number}</span>
                    <span className="text-slate-500"> · {formatDate(o.createdAt, i18n.language)}</span>
                    <span className="block truncate text-slate-700">{o.serviceName}</span>
                    <span className="block truncate text-xs text-slate-500">{o.link}</span>
                  </span>
                </label>
              </li>
            );
          })}
        </ul>
      )}
    </fieldset>
  );
}
