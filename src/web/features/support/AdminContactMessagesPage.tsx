import { CheckCheck, Eye, Mail, Trash2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from '../../i18n';
import { toast } from '../../lib/toast';
import { CONTACT_STATUSES, type ContactMessageView } from '../../../core/contracts/support';
import type { PageMeta } from '../../app/page';
import { Badge, type BadgeTone } from '../../components/ui/Badge';
import { Button, buttonClass } from '../../components/ui/Button';
import { Dialog } from '../../components/ui/Dialog';
import { LoadingBox } from '../../components/ui/QueryState';
import { TableHead } from '../../components/ui/Table';
import { AdminPage, useCan } from '../admin';
import { EmptyNote, LoadError } from './staffUi';
import { useContactActions, useContactMessages } from './api';
import { errorText } from '../../lib/errorText';
import { formatDateTime, formatNumber } from '../../lib/format';

export const ns = ['admin-support', 'support'];
export const meta: PageMeta = ({ t, site }) => ({ title: `${t('admin-support:meta.contact')} · ${site.site_name}` });

const TONE: Record<string, BadgeTone> = { new: 'brand', read: 'warning', replied: 'success' };
/** A stored status the page does not know is shown as unknown (docs/rules.md#support). */
const known = (status: string) => (CONTACT_STATUSES as readonly string[]).includes(status);

/** /admin/contact-messages: counts, the table, a detail dialog, mark as replied, reply by mail, delete. */
export default function AdminContactMessagesPage() {
  return <ContactMessages />;
}

function ContactMessages() {
  const { t, i18n } = useTranslation('admin-support');
  const data = useContactMessages();
  const actions = useContactActions();
  const allowed = useCan();
  const [detail, setDetail] = useState<ContactMessageView | null>(null);
  const [confirming, setConfirming] = useState<ContactMessageView | null>(null);

  useEffect(() => {
    if (data.isError) toast.error(t('contact.loadFailed'), { description: errorText(t, data.error, 'support') });
  }, [data.isError, data.error, t]);

  const statusBadge = (status: string) => (
    <Badge tone={known(status) ? TONE[status] : 'neutral'} data-status={known(status) ? status : 'unknown'}>
      {t(`contact.status.${known(status) ? status : 'unknown'}`)}
    </Badge>
  );

  async function open(message: ContactMessageView) {
    setDetail(message);
    try {
      setDetail(await actions.open.mutateAsync(message.id));
    } catch (err) {
      toast.error(t('common.statusFailed'), { description: errorText(t, err, 'support') });
    }
  }

  async function markReplied(message: ContactMessageView) {
    try {
      const { message: updated } = await actions.markReplied.mutateAsync(message.id);
      if (detail?.id === updated.id) setDetail(updated);
      toast.success(t('contact.markedReplied'));
    } catch (err) {
      toast.error(t('common.statusFailed'), { description: errorText(t, err, 'support') });
    }
  }

  async function remove(message: ContactMessageView) {
    try {
      await actions.remove.mutateAsync(message.id);
      toast.success(t('contact.deleted'));
      setConfirming(null);
      if (detail?.id === message.id) setDetail(null);
    } catch (err) {
      toast.error(t('contact.deleteFailed'), { description: errorText(t, err, 'support') });
    }
  }

  const mailto = (m: ContactMessageView) => `mailto:${encodeURIComponent(m.email).replace(/%40/g, '@')}?subject=${encodeURIComponent(t('contact.replySubject', { subject: m.subject }))}`;
  const counts = data.data?.counts;
  const messages = data.data?.messages ?? [];

  return (
    <AdminPage title={t('contact.title')} description={t('contact.subtitle')}>
      <dl className="mb-6 grid grid-cols-2 gap-3 lg:grid-cols-4" data-testid="contact-counts">
        {(['total', 'new', 'read', 'replied'] as const).map((key) => (
          <div key={key} className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
            <dt className="text-sm text-slate-500">{t(`contact.counts.${key}`)}</dt>
            <dd className="mt-1 text-2xl font-bold text-slate-900" data-count={key}>
              {counts ? formatNumber(counts[key], i18n.language) : '—'}
            </dd>
          </div>
        ))}
      </dl>

      {data.isPending ? (
        <LoadingBox />
      ) : data.isError ? (
        <LoadError text={t('contact.loadFailed')} retry={t('common.retry')} onRetry={() => void data.refetch()} />
      ) : messages.length === 0 ? (
        <EmptyNote text={t('contact.empty')} />
      ) : (
        <div className="overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm">
          <table className="w-full text-left text-sm" data-testid="contact-table">
            <TableHead
              className="hidden border-b border-slate-200 bg-slate-50 text-xs font-semibold uppercase tracking-wide text-slate-500 md:table-header-group"
              cellClassName="px-4 py-3"
              columns={[
                ...(['name', 'email', 'subject', 'status', 'date'] as const).map((key) => ({ label: t(`contact.columns.${key}`) })),
                { label: t('contact.columns.actions'), className: 'text-right' },
              ]}
            />
            <tbody className="divide-y divide-slate-100">
              {messages.map((m) => (
                <tr key={m.id} className={`grid grid-cols-[1fr_auto] gap-x-3 gap-y-1 p-4 md:table-row md:p-0 ${m.status === 'new' ? 'bg-brand-50/40' : ''}`} data-message={m.subject}>
                  <td className="min-w-0 font-semibold text-slate-900 md:px-4 md:py-3">
                    <span className="break-words">{m.name}</span>
                  </td>
                  <td className="row-start-2 min-w-0 truncate text-slate-600 md:px-4 md:py-3">{m.email}</td>
                  <td className="col-span-2 min-w-0 break-words text-slate-800 md:px-4 md:py-3">{m.subject}</td>
                  <td className="col-start-2 row-start-1 md:px-4 md:py-3">{statusBadge(m.status)}</td>
                  <td className="col-start-2 row-start-2 whitespace-nowrap text-right text-xs text-slate-500 md:px-4 md:py-3 md:text-left md:text-sm">{formatDateTime(m.createdAt, i18n.language)}</td>
                  <td className="col-span-2 pt-2 md:px-4 md:py-3">
                    <div className="flex flex-wrap justify-start gap-1 md:flex-nowrap md:justify-end">
                      <Button variant="outline" size="sm" onClick={() => void open(m)}>
                        <Eye className="size-4" aria-hidden="true" />
                        {t('contact.view')}
                      </Button>
                      <Button variant="ghost" size="sm" onClick={() => void markReplied(m)} disabled={m.status === 'replied'} aria-label={`${t('contact.markReplied')}: ${m.subject}`} title={t('contact.markReplied')}>
                        <CheckCheck className="size-4" aria-hidden="true" />
                        <span className="md:sr-only">{t('contact.markReplied')}</span>
                      </Button>
                      {allowed('support:delete') ? (
                        <Button variant="ghost" size="sm" className="text-rose-700 hover:bg-rose-50" onClick={() => setConfirming(m)} aria-label={`${t('contact.delete')}: ${m.subject}`} title={t('contact.delete')}>
                          <Trash2 className="size-4" aria-hidden="true" />
                          <span className="md:sr-only">{t('contact.delete')}</span>
                        </Button>
                      ) : null}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      <Dialog open={!!detail} onOpenChange={(o) => !o && setDetail(null)} title={detail?.subject ?? t('contact.detailTitle')} closeLabel={t('common.close')} className="max-w-2xl">
        {detail ? (
          <div data-testid="contact-detail">
            <dl className="grid gap-3 rounded-xl bg-slate-50 p-4 text-sm sm:grid-cols-2">
              <div>
                <dt className="text-xs text-slate-500">{t('contact.from')}</dt>
                <dd className="font-medium text-slate-900">
                  {detail.name} · <span className="break-all">{detail.email}</span>
                </dd>
              </div>
              <div>
                <dt className="text-xs text-slate-500">{t('contact.received')}</dt>
                <dd className="font-medium text-slate-900">{formatDateTime(detail.createdAt, i18n.language)}</dd>
              </div>
              <div>
                <dt className="text-xs text-slate-500">{t('contact.columns.status')}</dt>
                <dd className="mt-0.5">{statusBadge(detail.status)}</dd>
              </div>
            </dl>
            <p className="mt-4 whitespace-pre-wrap break-words text-sm leading-relaxed text-slate-800">{detail.message}</p>
            <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <a href={mailto(detail)} className={buttonClass('outline', 'md')}>
                <Mail className="size-4" aria-hidden="true" />
                {t('contact.replyByMail')}
              </a>
              <Button onClick={() => void markReplied(detail)} disabled={detail.status === 'replied' || actions.markReplied.isPending}>
                <CheckCheck className="size-4" aria-hidden="true" />
                {t('contact.markReplied')}
              </Button>
            </div>
          </div>
        ) : null}
      </Dialog>

      <Dialog open={!!confirming} onOpenChange={(o) => !o && setConfirming(null)} title={t('contact.confirmTitle')} closeLabel={t('common.close')}>
        {confirming ? (
          <div>
            <p className="text-sm text-slate-600">{t('contact.confirmText', { subject: confirming.subject })}</p>
            <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <Button variant="ghost" onClick={() => setConfirming(null)}>
                {t('contact.cancel')}
              </Button>
              <Button className="bg-rose-600 hover:bg-rose-700" onClick={() => void remove(confirming)} disabled={actions.remove.isPending}>
                <Trash2 className="size-4" aria-hidden="true" />
                {t('contact.confirm')}
              </Button>
            </div>
          </div>
        ) : null}
      </Dialog>
    </AdminPage>
  );
}
