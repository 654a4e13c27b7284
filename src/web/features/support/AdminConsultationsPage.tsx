import { Check, RotateCcw } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from '../../i18n';
import { toast } from '../../lib/toast';
import { CONSULTATION_STATUSES, type ConsultationStatus, type ConsultationView } from '../../../core/contracts/support';
import type { PageMeta } from '../../app/page';
import { Badge } from '../../components/ui/Badge';
import { Button } from '../../components/ui/Button';
import { LoadingBox } from '../../components/ui/QueryState';
import { AdminPage } from '../admin';
import { EmptyNote, LoadError, selectClass } from './staffUi';
import { useConsultations, useConsultationStatus } from './api';
import { errorText } from '../../lib/errorText';
import { formatDateTime } from '../../lib/format';

export const ns = ['admin-support', 'support'];
export const meta: PageMeta = ({ t, site }) => ({ title: `${t('admin-support:meta.consultations')} · ${site.site_name}` });

/** /admin/consultations: requests from the services pages, new or handled. */
export default function AdminConsultationsPage() {
  return <Consultations />;
}

function Consultations() {
  const { t, i18n } = useTranslation('admin-support');
  const id = useId();
  const [status, setStatus] = useState<ConsultationStatus | ''>('new');
  const list = useConsultations(status || undefined);
  const change = useConsultationStatus();

  useEffect(() => {
    if (list.isError) toast.error(t('consultations.loadFailed'), { description: errorText(t, list.error, 'support') });
  }, [list.isError, list.error, t]);

  async function setTo(c: ConsultationView, next: ConsultationStatus) {
    try {
      await change.mutateAsync({ id: c.id, status: next });
      toast.success(t('consultations.changed'));
    } catch (err) {
      toast.error(t('common.statusFailed'), { description: errorText(t, err, 'support') });
    }
  }

  const filter = (
    <div className="sm:w-48">
      <label htmlFor={`${id}-status`} className="mb-1 block text-xs font-medium text-slate-600">
        {t('consultations.filter')}
      </label>
      <select id={`${id}-status`} className={selectClass} value={status} onChange={(e) => setStatus(e.target.value as ConsultationStatus | '')}>
        <option value="">{t('common.all')}</option>
        {CONSULTATION_STATUSES.map((s) => (
          <option key={s} value={s}>
            {t(`consultations.status.${s}`)}
          </option>
        ))}
      </select>
    </div>
  );

  const rows = list.data ?? [];
  return (
    <AdminPage title={t('consultations.title')} description={t('consultations.subtitle')} actions={filter}>
      {list.isPending ? (
        <LoadingBox />
      ) : list.isError ? (
        <LoadError text={t('consultations.loadFailed')} retry={t('common.retry')} onRetry={() => void list.refetch()} />
      ) : rows.length === 0 ? (
        <EmptyNote text={t('consultations.empty')} />
      ) : (
        <ul className="grid gap-4 lg:grid-cols-2" data-testid="consultation-list">
          {rows.map((c) => (
            <li key={c.id} className="flex flex-col rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
              <div className="flex items-start justify-between gap-3">
                <div className="min-w-0">
                  <p className="break-words font-semibold text-slate-900">{c.name}</p>
                  <p className="mt-0.5 text-sm text-slate-600">
                    <a href={`mailto:${c.email}`} className="break-all text-brand-700 hover:underline">
                      {c.email}
                    </a>
                    {' · '}
                    <a href={`tel:${c.phone.replace(/[^\d+]/g, '')}`} className="whitespace-nowrap text-brand-700 hover:underline">
                      {c.phone}
                    </a>
                  </p>
                </div>
                <Badge tone={c.status === 'new' ? 'brand' : 'success'} className="shrink-0">
                  {t(`consultations.status.${c.status}`)}
                </Badge>
              </div>
              <div className="mt-3 flex flex-wrap items-center gap-2 text-xs text-slate-500">
                <Badge tone="neutral">{t(`support:consultation.services.${c.service}`)}</Badge>
                <time dateTime={c.createdAt}>{formatDateTime(c.createdAt, i18n.language)}</time>
              </div>
              <p className="mt-3 flex-1 whitespace-pre-wrap break-words text-sm leading-relaxed text-slate-700">{c.message}</p>
              <div className="mt-4 flex justify-end">
                {c.status === 'new' ? (
                  <Button size="sm" onClick={() => void setTo(c, 'handled')} disabled={change.isPending}>
                    <Check className="size-4" aria-hidden="true" />
                    {t('consultations.markHandled')}
                  </Button>
                ) : (
                  <Button size="sm" variant="ghost" onClick={() => void setTo(c, 'new')} disabled={change.isPending}>
                    <RotateCcw className="size-4" aria-hidden="true" />
                    {t('consultations.markNew')}
                  </Button>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
    </AdminPage>
  );
}
