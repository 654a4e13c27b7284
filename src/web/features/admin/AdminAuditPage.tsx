import { Link, useSearchParams } from 'react-router';
import { useTranslation } from '../../i18n';
import type { PageMeta } from '../../app/page';
import { Badge } from '../../components/ui/Badge';
import { Input } from '../../components/ui/Input';
import { useLanguage } from '../../lib/language';
import { formatDateTime, formatNumber } from '../../lib/format';
import { useAdminBase } from './AdminLayout';
import { useAudit, type AuditEntry, type AuditQuery } from './api';
import { actionLabel, auditKey, auditSentence, humanize, targetLink, targetName } from './auditText';
import { AdminPage, CardsOrTable, FilterField, Pager, Panel, QueryView, Select, Table, td, Th, useFailureNotice } from './ui';

export const ns = ['admin'];
export const meta: PageMeta = ({ t, site }) => ({ title: `${t('admin:audit.title')} · ${site.site_name}` });

const tone = (action: string) => (/delete|remove|refund|disable|reversal|dismiss/.test(action) ? 'danger' : /create|add|enable|import/.test(action) ? 'success' : 'brand');

/** The filters the address holds: `actor`, `action`, `from`, `to` (yyyy-mm-dd) and `page`. */
const FILTERS = ['actor', 'action', 'from', 'to'] as const;
type Filter = (typeof FILTERS)[number];
const DAY = /^\d{4}-\d{2}-\d{2}$/;

function filtersOf(params: URLSearchParams): Omit<AuditQuery, 'lang'> {
  const q: Partial<Record<Filter, string>> = {};
  for (const key of FILTERS) {
    const v = params.get(key)?.trim();
    if (v && ((key !== 'from' && key !== 'to') || DAY.test(v))) q[key] = v;
  }
  const page = Number(params.get('page'));
  return Number.isInteger(page) && page > 1 ? { ...q, page } : q;
}

/** /admin/audit: who did what, when, to whom — in words, filtered by actor, action and days, a page at a time; the filters live in the address. */
export default function AdminAuditPage() {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  const [params, setParams] = useSearchParams();
  const filters = filtersOf(params);
  const audit = useAudit({ ...filters, lang });
  const data = audit.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;

  useFailureNotice(audit, 'notices.auditNotLoaded');

  /** Changes the filters in the address (back to the first page unless the page is what changes). */
  const set = (patch: Partial<Record<Filter, string>> & { page?: number }) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [k, v] of Object.entries(patch)) {
          if (v === undefined || v === '' || (k === 'page' && v === 1)) next.delete(k);
          else next.set(k, String(v));
        }
        if (patch.page === undefined) next.delete('page');
        return next;
      },
      { replace: true, preventScrollReset: true },
    );

  return (
    <AdminPage title={t('audit.title')} description={data ? t('audit.total', { count: data.total, formatted: formatNumber(data.total, lang) }) : t('audit.lead')}>
      <Panel>
        <div className="grid grid-cols-2 gap-3 border-b border-slate-200 p-4 lg:grid-cols-4">
          <FilterField id="audit-actor" label={t('audit.actor')}>
            <Select id="audit-actor" value={filters.actor ?? ''} onChange={(e) => set({ actor: e.target.value })}>
              <option value="">{t('audit.allActors')}</option>
              {(data?.actors ?? []).map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name ? `${a.name} · ${a.email}` : a.email}
                </option>
              ))}
            </Select>
          </FilterField>
          <FilterField id="audit-action" label={t('audit.action')}>
            <Select id="audit-action" value={filters.action ?? ''} onChange={(e) => set({ action: e.target.value })}>
              <option value="">{t('audit.allActions')}</option>
              {withCurrent(data?.actions ?? [], filters.action).map((a) => (
                <option key={a} value={a}>
                  {actionLabel(t, a)}
                </option>
              ))}
            </Select>
          </FilterField>
          <FilterField id="audit-from" label={t('audit.from')}>
            <Input id="audit-from" type="date" value={filters.from ?? ''} max={filters.to} onChange={(e) => set({ from: e.target.value })} className="h-10 py-2" />
          </FilterField>
          <FilterField id="audit-to" label={t('audit.to')}>
            <Input id="audit-to" type="date" value={filters.to ?? ''} min={filters.from} onChange={(e) => set({ to: e.target.value })} className="h-10 py-2" />
          </FilterField>
        </div>
        <QueryView query={audit} error={t('notices.auditNotLoaded')} empty={t('audit.empty')} isEmpty={(d) => d.entries.length === 0}>
          {(d) => (
            <CardsOrTable
              cards={d.entries.map((e) => (
                <li key={e.id} className="space-y-1.5 px-4 py-4" data-testid="audit-card">
                  <div className="flex items-center justify-between gap-3">
                    <Badge tone={tone(e.action)}>{actionLabel(t, e.action)}</Badge>
                    <span className="text-xs text-slate-500">{formatDateTime(e.createdAt, lang)}</span>
                  </div>
                  <p className="break-words text-sm text-slate-900">{auditSentence(t, lang, e)}</p>
                  <Who entry={e} />
                </li>
              ))}
            >
              <Table
                label={t('audit.title')}
                minWidth="min-w-[900px]"
                head={
                  <>
                    <Th>{t('audit.when')}</Th>
                    <Th>{t('audit.who')}</Th>
                    <Th>{t('audit.what')}</Th>
                    <Th>{t('audit.target')}</Th>
                  </>
                }
              >
                {d.entries.map((e) => (
                  <tr key={e.id} data-testid="audit-row">
                    <td className={`${td} whitespace-nowrap`}>{formatDateTime(e.createdAt, lang)}</td>
                    <td className={`${td} max-w-56`}>
                      <Who entry={e} />
                    </td>
                    <td className={`${td} max-w-xl break-words`}>
                      <Badge tone={tone(e.action)}>{actionLabel(t, e.action)}</Badge>
                      <p className="mt-1 text-sm text-slate-900" data-testid="audit-sentence">
                        {auditSentence(t, lang, e)}
                      </p>
                    </td>
                    <td className={`${td} max-w-64 break-words`}>
                      <Target entry={e} />
                    </td>
                  </tr>
                ))}
              </Table>
            </CardsOrTable>
          )}
        </QueryView>
        {data ? <Pager page={data.page} pages={pages} label={t('audit.paging')} onPage={(p) => set({ page: p })} /> : null}
      </Panel>
    </AdminPage>
  );
}

/** The actions the log holds, and the one asked for in the address even when this page of the log has none of it. */
const withCurrent = (actions: string[], current?: string) => (current && !actions.includes(current) ? [...actions, current] : actions);

/** Who acted: their name and e-mail as they are now; the e-mail the entry kept, marked, once the account is gone. */
function Who({ entry }: { entry: AuditEntry }) {
  const { t } = useTranslation('admin');
  const { name, email, gone } = entry.actor;
  return (
    <div className="min-w-0 text-sm" data-testid="audit-actor">
      {name ? <p className="truncate font-medium text-slate-900">{name}</p> : null}
      <p className="truncate text-xs text-slate-600" title={email}>
        {email}
        {gone ? <span className="ml-1 text-slate-400">({t('audit.gone')})</span> : null}
      </p>
    </div>
  );
}

/** On whom or what: the kind of target and its name, linked to its admin page where there is one. */
function Target({ entry }: { entry: AuditEntry }) {
  const { t } = useTranslation('admin');
  const base = useAdminBase();
  const link = targetLink(entry);
  const name = entry.targetId || entry.target.label ? targetName(t, entry) : null;
  const kind = t(`audit.targets.${auditKey(entry.targetType)}`, { defaultValue: humanize(entry.targetType) });
  return (
    <span className="text-sm">
      {!name && link ? (
        <Link to={base + link} className="font-medium text-brand-700 underline underline-offset-2 hover:text-brand-800" data-testid="audit-target">
          {kind}
        </Link>
      ) : (
        <span className="text-slate-500">{kind}</span>
      )}
      {name ? (
        link ? (
          <Link to={base + link} className="ml-1.5 font-medium text-brand-700 underline underline-offset-2 hover:text-brand-800" data-testid="audit-target">
            {name}
          </Link>
        ) : (
          <span className="ml-1.5 text-slate-700" data-testid="audit-target">
            {name}
          </span>
        )
      ) : null}
    </span>
  );
}

