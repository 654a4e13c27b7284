import { ArrowLeft } from 'lucide-react';
import { useEffect } from 'react';
import { useTranslation } from '../../i18n';
import { toast } from '../../lib/toast';
import { Badge } from '../../components/ui/Badge';
import { Button } from '../../components/ui/Button';
import { Spinner } from '../../components/ui/Spinner';
import { useOwnThread, useSendMessage } from './api';
import { Composer } from './Composer';
import { errorText } from '../../lib/errorText';
import { PRIORITY_TONE, ticketBadge } from './format';
import { TicketAbout } from './TicketAbout';
import { MessageList } from './MessageList';
import { formatDateTime } from '../../lib/format';

/** One of the customer's tickets: its description, the messages oldest first, and the reply box. */
export function TicketThread({ ticketId, onBack }: { ticketId: string; onBack: () => void }) {
  const { t, i18n } = useTranslation('support');
  const thread = useOwnThread(ticketId);
  const send = useSendMessage(ticketId);
  const ticket = thread.data?.ticket;

  useEffect(() => {
    if (thread.isError) toast.error(t('thread.loadFailed'), { description: errorText(t, thread.error, 'support') });
  }, [thread.isError, thread.error, t]);

  async function onSend(text: string) {
    try {
      await send.mutateAsync(text);
    } catch (err) {
      toast.error(t('thread.sendFailed'), { description: errorText(t, err, 'support') });
      throw err;
    }
  }

  return (
    <section aria-label={t('thread.label')} className="flex h-full min-h-[28rem] flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm">
      <header className="border-b border-slate-200 p-4 sm:p-5">
        <Button variant="ghost" size="sm" className="-ml-2 mb-2 lg:hidden" onClick={onBack}>
          <ArrowLeft className="size-4" aria-hidden="true" />
          {t('thread.back')}
        </Button>
        {ticket ? (
          <>
            <div className="flex flex-wrap items-center gap-2">
              <Badge tone={ticketBadge(ticket).tone}>{t(ticketBadge(ticket).key)}</Badge>
              <Badge tone={PRIORITY_TONE[ticket.priority]}>{t(`priority.${ticket.priority}`)}</Badge>
              <span className="text-xs text-slate-500">{formatDateTime(ticket.createdAt, i18n.language)}</span>
            </div>
            <h3 className="mt-2 break-words text-lg font-bold text-slate-900" data-testid="thread-title">
              {ticket.title}
            </h3>
            <p className="mt-1 whitespace-pre-wrap break-words text-sm text-slate-600">{ticket.description}</p>
            <TicketAbout ticket={ticket} />
          </>
        ) : null}
      </header>

      {thread.isPending ? (
        <div className="grid flex-1 place-items-center p-8">
          <Spinner label={t('thread.loading')} />
        </div>
      ) : thread.isError ? (
        <div role="alert" className="grid flex-1 place-items-center gap-3 p-8 text-center">
          <p className="text-sm font-medium text-rose-700">{t('thread.loadFailed')}</p>
          <Button variant="outline" size="sm" onClick={() => void thread.refetch()}>
            {t('tab.retry')}
          </Button>
        </div>
      ) : (
        <>
          <MessageList
            className="max-h-[26rem] min-h-48 flex-1"
            messages={thread.data.messages}
            side="customer"
            lang={i18n.language}
            names={{ team: t('thread.team'), customer: t('thread.you') }}
            empty={t('thread.empty')}
          />
          {ticket && (ticket.status === 'closed' || ticket.status === 'resolved') ? (
            <p className="border-t border-slate-200 bg-amber-50 px-4 py-2 text-xs text-amber-800">{t('thread.closedNote')}</p>
          ) : null}
          <Composer
            onSend={onSend}
            labels={{ label: t('thread.messageLabel'), placeholder: t('thread.placeholder'), hint: t('thread.hint'), send: t('thread.send'), sending: t('thread.sending') }}
          />
        </>
      )}
    </section>
  );
}
