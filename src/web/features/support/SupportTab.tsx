import { useQueryClient } from '@tanstack/react-query';
import { Inbox, LifeBuoy, Plus } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from '../../i18n';
import { toast } from '../../lib/toast';
import { Button } from '../../components/ui/Button';
import { Spinner } from '../../components/ui/Spinner';
import { LoadingBox } from '../../components/ui/QueryState';
import { useLiveEvents } from '../../lib/liveEvents';
import { supportKeys, useOwnTickets } from './api';
import { errorText } from '../../lib/errorText';
import { NewTicketForm } from './NewTicketForm';
import { TicketCard } from './TicketCard';
import { TicketPanes } from './TicketPanes';
import { TicketThread } from './TicketThread';
import { useNamespaceReady } from './useNamespace';
import { formatDate } from '../../lib/format';

/**
 * The dashboard's support tab (docs/rules.md#support): the customer's tickets, a form for a new one, and
 * the conversation of the chosen ticket. The team's replies arrive live over /api/events.
 */
export function SupportTab() {
  const ready = useNamespaceReady('support');
  if (!ready)
    return (
      <div className="grid min-h-48 place-items-center">
        <Spinner />
      </div>
    );
  return <Support />;
}

function Support() {
  const { t, i18n } = useTranslation('support');
  const qc = useQueryClient();
  const tickets = useOwnTickets();
  const [selected, setSelected] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);

  useLiveEvents(
    (event) => {
      if (event.type !== 'ticket') return;
      void qc.invalidateQueries({ queryKey: supportKeys.ownTickets() });
      void qc.invalidateQueries({ queryKey: supportKeys.ownThread(event.ticketId) });
    },
    { onReconnect: () => void qc.invalidateQueries({ queryKey: supportKeys.own }) },
  );

  useEffect(() => {
    if (tickets.isError) toast.error(t('tab.loadFailed'), { description: errorText(t, tickets.error, 'support') });
  }, [tickets.isError, tickets.error, t]);

  const list = tickets.data ?? [];

  return (
    <section aria-labelledby="support-heading" className="space-y-5" data-testid="support-tab">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h2 id="support-heading" className="flex items-center gap-2 text-xl font-bold text-slate-900">
            <LifeBuoy className="size-5 text-brand-600" aria-hidden="true" />
            {t('tab.title')}
          </h2>
          <p className="mt-1 text-sm text-slate-600">{t('tab.subtitle')}</p>
        </div>
        {!creating ? (
          <Button onClick={() => setCreating(true)} className="self-start sm:self-auto">
            <Plus className="size-4" aria-hidden="true" />
            {t('tab.newTicket')}
          </Button>
        ) : null}
      </div>

      {creating ? (
        <NewTicketForm
          onCancel={() => setCreating(false)}
          onCreated={(ticket) => {
            setCreating(false);
            setSelected(ticket.id);
          }}
        />
      ) : null}

      {tickets.isPending ? (
        <LoadingBox label={t('tab.loading')} />
      ) : tickets.isError ? (
        <div role="alert" className="flex flex-col items-center gap-3 rounded-2xl border border-rose-200 bg-rose-50 p-8 text-center">
          <p className="text-sm font-medium text-rose-700">{t('tab.loadFailed')}</p>
          <Button variant="outline" size="sm" onClick={() => void tickets.refetch()}>
            {t('tab.retry')}
          </Button>
        </div>
      ) : list.length === 0 ? (
        <div className="flex flex-col items-center rounded-2xl border border-dashed border-slate-300 bg-white px-6 py-12 text-center">
          <span className="grid size-12 place-items-center rounded-2xl bg-brand-50 text-brand-600">
            <Inbox className="size-6" aria-hidden="true" />
          </span>
          <p className="mt-4 font-semibold text-slate-900">{t('tab.empty')}</p>
          <p className="mt-1 max-w-md text-sm text-slate-600">{t('tab.emptyHint')}</p>
        </div>
      ) : (
        <TicketPanes
          selected={selected}
          onBack={() => setSelected(null)}
          placeholder={t('tab.select')}
          placeholderClassName="bg-slate-50"
          Thread={TicketThread}
          list={
            <ul aria-label={t('tab.listLabel')} className="space-y-3">
              {list.map((ticket) => (
                <li key={ticket.id}>
                  <TicketCard
                    ticket={ticket}
                    selected={selected === ticket.id}
                    onSelect={() => setSelected(ticket.id)}
                    className="hover:shadow-md"
                    meta={<time dateTime={ticket.createdAt}>{t('tab.created', { date: formatDate(ticket.createdAt, i18n.language) })}</time>}
                  />
                </li>
              ))}
            </ul>
          }
        />
      )}
    </section>
  );
}

export default SupportTab;
