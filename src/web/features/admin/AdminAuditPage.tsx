import { Search } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from '../../i18n';
import type { PageMeta } from '../../app/page';
import { Badge } from '../../components/ui/Badge';
import { Input } from '../../components/ui/Input';
import { useLanguage } from '../../lib/language';
import { useAudit, type AuditEntry } from './api';
import { formatDateTime, notifyError } from './format';
import { AdminPage, Empty, LoadError, Loading, Panel, Table, td, th } from './ui';

export const ns = ['admin'];
export const meta: PageMeta = ({ t }) => ({ title: `${t('admin:audit.title')} · ${t('brand')}` });

/** Details as short `key: value` pairs; nested values (a settings diff) as compact JSON. */
export function detailText(details: Record<string, unknown>): string {
  return Object.entries(details)
    .map(([k, v]) => `${k}: ${typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)}`)
    .join(' · ');
}

const tone = (action: string) => (/delete|remove|refund/.test(action) ? 'danger' : /create|add/.test(action) ? 'success' : 'brand');

/** /admin/audit: who did what, when, to what — the latest 200 entries, filterable here. */
export default function AdminAuditPage() {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  const audit = useAudit();
  const [filter, setFilter] = useState('');

  useEffect(() => {
    if (audit.isError) notifyError(t, 'notices.auditNotLoaded', audit.error);
  }, [audit.isError, audit.error, t]);

  const rows = useMemo(() => {
    const q = filter.trim().toLowerCase();
    const all = audit.data ?? [];
    return q ? all.filter((e: AuditEntry) => [e.actorEmail, e.action, e.targetType, e.targetId ?? '', detailText(e.details)].some((v) => v.toLowerCase().includes(q))) : all;
  }, [audit.data, filter]);

  return (
    <AdminPage title={t('audit.title')} description={t('audit.lead')}>
      <Panel>
        <div className="border-b border-slate-200 p-4">
          <label htmlFor="audit-filter" className="sr-only">
            {t('audit.filter')}
          </label>
          <div className="relative max-w-md">
            <Search className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-slate-400" aria-hidden="true" />
            <Input id="audit-filter" type="search" value={filter} onChange={(e) => setFilter(e.target.value)} placeholder={t('audit.filter')} className="h-10 py-2 pl-9" />
          </div>
        </div>
        {audit.isError && !audit.data ? (
          <LoadError message={t('notices.auditNotLoaded')} onRetry={() => void audit.refetch()} />
        ) : !audit.data ? (
          <Loading />
        ) : rows.length === 0 ? (
          <Empty text={t('audit.empty')} />
        ) : (
          <Table label={t('audit.title')} minWidth="min-w-[900px]">
            <thead className="bg-slate-50">
              <tr>
                <th scope="col" className={th}>
                  {t('audit.when')}
                </th>
                <th scope="col" className={th}>
                  {t('audit.who')}
                </th>
                <th scope="col" className={th}>
                  {t('audit.action')}
                </th>
                <th scope="col" className={th}>
                  {t('audit.target')}
                </th>
                <th scope="col" className={th}>
                  {t('audit.details')}
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {rows.map((e) => (
                <tr key={e.id} data-testid="audit-row">
                  <td className={`${td} whitespace-nowrap`}>{formatDateTime(e.createdAt, lang)}</td>
                  <td className={`${td} max-w-48 truncate`} title={e.actorEmail}>
                    {e.actorEmail}
                  </td>
                  <td className={td}>
                    <Badge tone={tone(e.action)}>{t(`audit.actions.${e.action.replace(/[.-]/g, '_')}`, { defaultValue: e.action })}</Badge>
                  </td>
                  <td className={`${td} whitespace-nowrap`}>
                    <span className="text-slate-500">{t(`audit.targets.${e.targetType.replace(/-/g, '_')}`, { defaultValue: e.targetType })}</span>
                    {e.targetId ? <span className="ml-1.5 font-mono text-xs text-slate-700">{e.targetId.length > 14 ? `${e.targetId.slice(0, 8)}…` : e.targetId}</span> : null}
                  </td>
                  <td className={`${td} max-w-md break-words text-xs text-slate-600`}>{detailText(e.details) || '—'}</td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </Panel>
    </AdminPage>
  );
}
