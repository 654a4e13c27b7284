import type { ReactNode } from 'react';
import { useTranslation } from '../../i18n';
import { TICKET_PREVIEW_LENGTH, type TicketView } from '../../../core/contracts/support';
import { Badge } from '../../components/ui/Badge';
import { cn } from '../../components/ui/cn';
import { preview, PRIORITY_TONE, ticketBadge } from './format';

/**
 * One ticket in a ticket list, as a button that opens its thread (docs/rules.md#support): title and
 * status, an optional line on who wrote it, the description's preview, the priority and `meta`.
 */
export function TicketCard({
  ticket,
  selected,
  onSelect,
  who,
  meta,
  className,
}: {
  ticket: TicketView;
  selected: boolean;
  onSelect: () => void;
  who?: ReactNode;
  meta: ReactNode;
  className?: string;
}) {
  const { t } = useTranslation('support');
  const badge = ticketBadge(ticket);
  return (
    <button
      type="button"
      onClick={onSelect}
      aria-current={selected ? 'true' : undefined}
      className={cn(
        'w-full rounded-2xl border bg-white p-4 text-left shadow-sm transition hover:border-brand-500',
        className,
        selected ? 'border-brand-500 ring-2 ring-brand-100' : 'border-slate-200',
      )}
    >
      <div className="flex items-start justify-between gap-3">
        <p className="min-w-0 break-words font-semibold text-slate-900">{ticket.title}</p>
        <Badge tone={badge.tone} className="shrink-0">
          {t(badge.key)}
        </Badge>
      </div>
      {who ? <p className="mt-0.5 truncate text-xs text-slate-500">{who}</p> : null}
      <p className={cn(who ? 'mt-2' : 'mt-1', 'break-words text-sm text-slate-600')}>{preview(ticket.description, TICKET_PREVIEW_LENGTH)}</p>
      <div className="mt-3 flex flex-wrap items-center gap-2 text-xs text-slate-500">
        <Badge tone={PRIORITY_TONE[ticket.priority]}>{t(`priority.${ticket.priority}`)}</Badge>
        {ticket.request ? <span className="font-medium text-slate-700">{t('request.label', { request: t(`request.kinds.${ticket.request}`), count: ticket.orders.length })}</span> : null}
        {meta}
      </div>
    </button>
  );
}
