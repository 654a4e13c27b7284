import { useMemo, useState } from 'react';
import { useTranslation } from '../../i18n';
import type { PageMeta } from '../../app/page';
import { Badge } from '../../components/ui/Badge';
import { useLanguage } from '../../lib/language';
import { useAudit, type AuditEntry } from './api';
import { AdminPage, Panel, QueryView, SearchField, Table, td, Th, useFailureNotice } from './ui';
import { formatDateTime } from '../../lib/format';

export const ns = ['admin'];
export const meta: PageMeta = ({ t, site }) => ({ title: `${t('admin:audit.title')} · ${site.site_name}` });

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

  useFailureNotice(audit, 'notices.auditNotLoaded');

  const rows = useMemo(() => {
    const q = filter.trim().toLowerCase();
    const all = audit.data ?? [];
    return q ? all.filter((e: AuditEntry) => [e.actorEmail, e.action, e.targetType, e.targetId ?? '', detailText(e.details)].some((v) => v.toLowerCase().includes(q))) : all;
  }, [audit.data, filter]);

  return (
    <AdminPage title={t('audit.title')} description={t('audit.lead')}>
      <Panel>
        <div className="border-b border-slate-200 p-4">
          <SearchField id="audit-filter" label={t('audit.filter')} value={filter} onChange={setFilter} placeholder={t('audit.filter')} className="max-w-md" />
        </div>
        <QueryView query={audit} error={t('notices.auditNotLoaded')} empty={t('audit.empty')} isEmpty={() => rows.length === 0}>
          {() => (
            <Table
              label={t('audit.title')}
              minWidth="min-w-[900px]"
              head={
                <>
                  <Th>{t('audit.when')}</Th>
                  <Th>{t('audit.who')}</Th>
                  <Th>{t('audit.action')}</Th>
                  <Th>{t('audit.target')}</Th>
                  <Th>{t('audit.details')}</Th>
                </>
              }
            >
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
            </Table>
          )}
        </QueryView>
      </Panel>
    </AdminPage>
  );
}
