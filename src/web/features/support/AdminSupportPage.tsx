import { useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, Search } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from '../../i18n';
import { toast } from '../../lib/toast';
import { TICKET_PRIORITIES, TICKET_STATUSES, type TicketPriority, type TicketStatus } from '../../../core/contracts/support';
import type { PageMeta } from '../../app/page';
import { Badge } from '../../components/ui/Badge';
import { Button } from '../../components/ui/Button';
import { cn } from '../../components/ui/cn';
import { Input } from '../../components/ui/Input';
import { Spinner } from '../../components/ui/Spinner';
import { LoadingBox } from '../../components/ui/QueryState';
import { useLiveEvents } from '../../lib/liveEvents';
import { AdminPage } from '../admin';
import { EmptyNote, LoadError, selectClass } from './staffUi';
import { TicketCard } from './TicketCard';
import { TicketPanes } from './TicketPanes';
import { supportKeys, useAdminReply, useAdminThread, useAdminTickets, useTicketStatus } from './api';
import { Composer } from './Composer';
import { errorText } from '../../lib/errorText';
import { PRIORITY_TONE } from './format';
import { MessageList } from './MessageList';
import { TicketAbout } from './TicketAbout';
import { TicketOrders } from './TicketOrders';
import { formatDateTime } from '../../lib/format';

export const ns = ['admin-support', 'support', 'admin'];
export const meta: PageMeta = ({ t, site }) => ({ title: `${t('admin-support:meta.support')} · ${site.site_name}` });

/** /admin/support: every customer's tickets, filtered and searched, with the thread and a reply box. */
export default function AdminSupportPage() {
  return <Inbox />;
}

function Inbox() {
  const { t, i18n } = useTranslation('admin-support');
  const qc = useQueryClient();
  const id = useId();
  // The dashboard's count of tickets waiting for the team links here with `?status=open`.
  const [params] = useSearchParams();
  const [status, setStatus] = useState<TicketStatus | ''>(() => TICKET_STATUSES.find((s) => s === params.get('status')) ?? '');
  const [priority, setPriority] = useState<TicketPriority | ''>('');
  const [typed, setTyped] = useState('');
  const [q, setQ] = useState('');
  // The audit log links a ticket here (`?ticket=`): it opens with its thread.
  const [selected, setSelected] = useState<string | null>(() => params.get('ticket'));

  useEffect(() => {
    const timer = setTimeout(() => setQ(typed.trim()), 300);
    return () => clearTimeout(timer);
  }, [typed]);

  const tickets = useAdminTickets({ status: status || undefined, priority: priority || undefined, q: q || undefined });

  useLiveEvents(
    (event) => {
      if (event.type !== 'admin_ticket') return;
      void qc.invalidateQueries({ queryKey: [...supportKeys.admin, 'tickets'] });
      void qc.invalidateQueries({ queryKey: supportKeys.adminThread(event.ticketId) });
    },
    { onReconnect: () => void qc.invalidateQueries({ queryKey: supportKeys.admin }) },
  );

  useEffect(() => {
    if (tickets.isError) toast.error(t('inbox.loadFailed'), { description: errorText(t, tickets.error, 'support') });
  }, [tickets.isError, tickets.error, t]);

  const list = tickets.data ?? [];

  return (
    <AdminPage title={t('inbox.title')} description={t('inbox.subtitle')}>
      <div role="search" aria-label={t('inbox.filters')} className="mb-5 grid gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:grid-cols-[1fr_11rem_11rem]">
        <div className="relative">
          <label htmlFor={`${id}-q`} className="sr-only">
            {t('inbox.search')}
          </label>
          <Search className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-slate-400" aria-hidden="true" />
          <Input id={`${id}-q`} type="search" value={typed} onChange={(e) => setTyped(e.target.value)} placeholder={t('inbox.searchPlaceholder')} className="py-2 pl-9" maxLength={100} />
        </div>
        <FilterSelect id={`${id}-s`} label={t('inbox.filterStatus')} field="status" values={TICKET_STATUSES} value={status} onChange={setStatus} />
        <FilterSelect id={`${id}-p`} label={t('inbox.filterPriority')} field="priority" values={TICKET_PRIORITIES} value={priority} onChange={setPriority} />
      </div>

      <TicketPanes
        selected={selected}
        onBack={() => setSelected(null)}
        placeholder={t('inbox.select')}
        placeholderClassName="bg-white"
        Thread={AdminThread}
        list={
          tickets.isPending ? (
            <LoadingBox />
          ) : tickets.isError ? (
            <LoadError text={t('inbox.loadFailed')} retry={t('common.retry')} onRetry={() => void tickets.refetch()} />
          ) : list.length === 0 ? (
            <EmptyNote text={t('inbox.empty')} />
          ) : (
            <ul className={cn('space-y-2', tickets.isFetching && 'opacity-80')} data-testid="admin-ticket-list">
              {list.map((ticket) => (
                <li key={ticket.id}>
                  <TicketCard
                    ticket={ticket}
                    selected={selected === ticket.id}
                    onSelect={() => setSelected(ticket.id)}
                    who={`${ticket.userName} · ${ticket.userEmail}`}
                    meta={
                      <>
                        <span>{t('inbox.messages', { count: ticket.messageCount })}</span>
                        <span aria-hidden="true">·</span>
                        <time dateTime={ticket.updatedAt}>{formatDateTime(ticket.updatedAt, i18n.language)}</time>
                      </>
                    }
                  />
                </li>
              ))}
            </ul>
          )
        }
      />
    </AdminPage>
  );
}

/** A filter of the inbox: every ticket, or only those with one status or priority. */
function FilterSelect<T extends string>({
  id,
  label,
  field,
  values,
  value,
  onChange,
}: {
  id: string;
  label: string;
  field: 'status' | 'priority';
  values: readonly T[];
  value: T | '';
  onChange: (value: T | '') => void;
}) {
  const { t } = useTranslation('admin-support');
  return (
    <div>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <select id={id} className={selectClass} value={value} onChange={(e) => onChange(e.target.value as T | '')}>
        <option value="">
          {t(`support:${field}.label`)}: {t('common.all')}
        </option>
        {values.map((v) => (
          <option key={v} value={v}>
            {t(`support:${field}.${v}`)}
          </option>
        ))}
      </select>
    </div>
  );
}

function AdminThread({ ticketId, onBack }: { ticketId: string; onBack: () => void }) {
  const { t, i18n } = useTranslation('admin-support');
  const id = useId();
  const thread = useAdminThread(ticketId);
  const reply = useAdminReply(ticketId);
  const changeStatus = useTicketStatus(ticketId);
  const ticket = thread.data?.ticket;

  useEffect(() => {
    if (thread.isError) toast.error(t('inbox.threadFailed'), { description: errorText(t, thread.error, 'support') });
  }, [thread.isError, thread.error, t]);

  async function onSend(text: string) {
    try {
      await reply.mutateAsync(text);
    } catch (err) {
      toast.error(t('inbox.replyFailed'), { description: errorText(t, err, 'support') });
      throw err;
    }
  }

  async function onStatus(next: TicketStatus) {
    try {
      await changeStatus.mutateAsync(next);
      await thread.refetch();
      toast.success(t('inbox.statusChanged'));
    } catch (err) {
      toast.error(t('common.statusFailed'), { description: errorText(t, err, 'support') });
    }
  }

  return (
    <section aria-label={ticket?.title ?? t('inbox.title')} className="flex flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm">
      <header className="border-b border-slate-200 p-4 sm:p-5">
        <Button variant="ghost" size="sm" className="-ml-2 mb-2 lg:hidden" onClick={onBack}>
          <ArrowLeft className="size-4" aria-hidden="true" />
          {t('inbox.back')}
        </Button>
        {ticket ? (
          <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
            <div className="min-w-0">
              <div className="flex flex-wrap items-center gap-2">
                <Badge tone={PRIORITY_TONE[ticket.priority]}>{t(`support:priority.${ticket.priority}`)}</Badge>
                <span className="text-xs text-slate-500">{formatDateTime(ticket.createdAt, i18n.language)}</span>
              </div>
              <h2 className="mt-2 break-words text-lg font-bold text-slate-900" data-testid="admin-thread-title">
                {ticket.title}
              </h2>
              <p className="text-sm text-slate-600">
                {ticket.userName} ·{' '}
                <a className="font-medium text-brand-700 hover:underline" href={`mailto:${ticket.userEmail}`}>
                  {ticket.userEmail}
                </a>
              </p>
            </div>
            <div className="sm:w-44">
              <label htmlFor={`${id}-status`} className="mb-1 block text-xs font-medium text-slate-600">
                {t('support:status.label')}
              </label>
              <select
                id={`${id}-status`}
                className={selectClass}
                value={ticket.status}
                disabled={changeStatus.isPending}
                onChange={(e) => void onStatus(e.target.value as TicketStatus)}
              >
                {TICKET_STATUSES.map((s) => (
                  <option key={s} value={s}>
                    {t(`support:status.${s}`)}
                  </option>
                ))}
              </select>
            </div>
          </div>
        ) : null}
        {ticket ? <p className="mt-3 whitespace-pre-wrap break-words rounded-xl bg-slate-50 p-3 text-sm text-slate-700">{ticket.description}</p> : null}
        {ticket ? <TicketAbout ticket={ticket} /> : null}
        {thread.data?.orders ? <TicketOrders orders={thread.data.orders} /> : null}
      </header>
      {thread.isPending ? (
        <div className="grid min-h-64 place-items-center p-8">
          <Spinner />
        </div>
      ) : thread.isError ? (
        <div className="p-4">
          <LoadError text={t('inbox.threadFailed')} retry={t('common.retry')} onRetry={() => void thread.refetch()} />
        </div>
      ) : (
        <>
          <MessageList
            className="max-h-[28rem] min-h-48"
            messages={thread.data.messages}
            side="team"
            lang={i18n.language}
            names={{ team: t('inbox.team'), customer: thread.data.ticket.userName || t('inbox.customer') }}
            empty={t('inbox.noMessages')}
          />
          <Composer
            onSend={onSend}
            labels={{ label: t('inbox.replyLabel'), placeholder: t('inbox.replyPlaceholder'), hint: t('inbox.replyHint'), send: t('inbox.send'), sending: t('inbox.sending') }}
          />
        </>
      )}
    </section>
  );
}
