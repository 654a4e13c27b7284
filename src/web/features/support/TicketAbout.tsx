import type { TicketView } from '../../../core/contracts/support';
import { useTranslation } from '../../i18n';

/** What a ticket about orders asks for, and the numbers of its orders. */
export function TicketAbout({ ticket }: { ticket: Pick<TicketView, 'request' | 'orders'> }) {
  const { t } = useTranslation('support');
  if (!ticket.request) return null;
  return (
    <p className="mt-2 text-sm text-slate-700" data-testid="ticket-about">
      <span className="font-semibold">{t(`request.kinds.${ticket.request}`)}</span>
      {ticket.orders.length ? (
        <>
          {': '}
          <span className="break-all font-mono text-xs">{ticket.orders.join(', ')}</span>
        </>
      ) : null}
    </p>
  );
}
