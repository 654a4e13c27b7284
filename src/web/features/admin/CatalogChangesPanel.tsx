import { Check, X } from 'lucide-react';
import { useState } from 'react';
import { platformDisplayName } from '../../../core/platforms';
import { useTranslation } from '../../i18n';
import { Badge, type BadgeTone } from '../../components/ui/Badge';
import { Button } from '../../components/ui/Button';
import { formatDateTime, formatMoneyDecimal, formatNumber } from '../../lib/format';
import { useLanguage } from '../../lib/language';
import { useCatalogChanges, useDecideChange, type AdminProvider, type CatalogChange } from './api';
import { ConfirmDialog, FormAlert } from './dialogs';
import { notify, notifyError } from './format';
import { pricePer1000 } from './forms';
import { MarkupFields, NO_MARKUP, parseMarkup, type MarkupDraft } from './MarkupFields';
import { ServiceSourcesDialog } from './ServiceSourcesDialog';
import { Panel, QueryView, Table, td, Th, Toggle, useFailureNotice } from './ui';

const KIND_TONE: Record<CatalogChange['kind'], BadgeTone> = { new: 'success', removed: 'danger', price: 'warning', limits: 'brand' };

type Terms = NonNullable<CatalogChange['before']>;
const maxOf = (terms: Terms) => terms.tiers.reduce((m, tier) => Math.max(m, tier.maximum), 0);

/**
 * What the catalogue reads found changed at the providers (new, removed, price, min/max), with the
 * terms before → after and the shop's services bought from it; the team applies or dismisses each
 * one (src/server/catalog/sources.ts `decideChange`). Applying a new service no service uses
 * imports it, with the markup typed in the dialog.
 */
export function CatalogChangesPanel({ providers }: { providers: readonly AdminProvider[] }) {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  const [all, setAll] = useState(false);
  const changes = useCatalogChanges(all);
  const decide = useDecideChange();
  const [importing, setImporting] = useState<CatalogChange | null>(null);
  // A service using the provider service, opened on its sources (a paused one is not in the services list).
  const [sourcesOf, setSourcesOf] = useState<string | null>(null);
  useFailureNotice(changes, 'catalogue.changesNotLoaded');
  const providerName = (id: string) => providers.find((p) => p.id === id)?.name ?? t('catalogue.unknownProvider');

  const run = (change: CatalogChange, decision: 'applied' | 'dismissed', markup?: { percent: string; fixedPer1000: string }) =>
    decide.mutate(
      { id: change.id, decision, markup },
      {
        onSuccess: (r) => {
          notify.success(decision === 'applied' ? t('catalogue.applied') : t('catalogue.dismissed'), r.services.length ? t('catalogue.servicesChanged', { ids: r.services.join(', ') }) : undefined);
          setImporting(null);
        },
        onError: (err) => notifyError(t, 'catalogue.decideFailed', err),
      },
    );
  const apply = (change: CatalogChange) => (change.kind === 'new' && change.services.length === 0 ? setImporting(change) : run(change, 'applied'));

  const price = (terms: Terms | null) => {
    const p = terms ? pricePer1000(terms) : null;
    return p === null ? '—' : formatMoneyDecimal(p, 'USD', lang);
  };
  const bounds = (terms: Terms | null) => (terms ? t('catalogue.bounds', { min: formatNumber(terms.amountMinimum, lang), max: formatNumber(maxOf(terms), lang) }) : '—');
  const termsOf = (c: CatalogChange) => {
    const show = c.kind === 'limits' ? bounds : price;
    if (c.kind === 'new') return `${price(c.after)} · ${bounds(c.after)}`;
    if (c.kind === 'removed') return `${price(c.before)} · ${bounds(c.before)}`;
    return `${show(c.before)} → ${show(c.after)}`;
  };

  return (
    <Panel className="mt-6" data-testid="catalog-changes">
      <div className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-200 p-4">
        <div>
          <h2 className="text-base font-semibold text-slate-900">{t('catalogue.changes')}</h2>
          <p className="text-sm text-slate-600">{t('catalogue.changesLead')}</p>
        </div>
        <Toggle label={t('catalogue.showDecided')} checked={all} onChange={setAll} />
      </div>
      <QueryView query={changes} error={t('catalogue.changesNotLoaded')} empty={t('catalogue.changesEmpty')} isEmpty={(d) => d.length === 0}>
        {(data) => (
          <Table
            label={t('catalogue.changes')}
            minWidth="min-w-[960px]"
            head={
              <>
                <Th>{t('catalogue.detected')}</Th>
                <Th>{t('catalogue.service')}</Th>
                <Th>{t('catalogue.kind')}</Th>
                <Th>{t('catalogue.beforeAfter')}</Th>
                <Th>{t('catalogue.usedBy')}</Th>
                <Th className="text-right">{t('common.actions')}</Th>
              </>
            }
          >
            {data.map((c) => {
              const terms = c.after ?? c.before;
              const name = terms?.name ?? c.serviceId;
              return (
                <tr key={c.id} data-testid="catalog-change-row">
                  <td className={`${td} whitespace-nowrap text-xs text-slate-500`}>{formatDateTime(c.detectedAt, lang)}</td>
                  <td className={td}>
                    <p className="font-medium text-slate-900">{name}</p>
                    <p className="text-xs text-slate-500">
                      {providerName(c.providerId)} · <span className="font-mono">{c.serviceId}</span>
                      {terms ? ` · ${[terms.platform ? platformDisplayName(terms.platform) : '', terms.type].filter(Boolean).join(' · ')}` : null}
                    </p>
                  </td>
                  <td className={td}>
                    <Badge tone={KIND_TONE[c.kind]}>{t(`catalogue.kinds.${c.kind}`)}</Badge>
                  </td>
                  <td className={`${td} whitespace-nowrap tabular-nums`}>{termsOf(c)}</td>
                  <td className={`${td} text-xs`}>
                    {c.services.length
                      ? c.services.map((u) => (
                          <button
                            key={u.serviceId}
                            type="button"
                            onClick={() => setSourcesOf(u.serviceId)}
                            className="mr-2 inline-block rounded font-mono text-brand-700 underline-offset-2 hover:underline focus-visible:outline-2"
                            aria-label={t('catalogue.sourcesItem', { name: u.serviceId })}
                          >
                            {u.serviceId} <span className="font-sans text-slate-500">({u.position === 0 ? t('catalogue.primary') : t('catalogue.fallback', { n: u.position })})</span>
                          </button>
                        ))
                      : '—'}
                  </td>
                  <td className={`${td} whitespace-nowrap text-right`}>
                    {c.decidedAt ? (
                      <Badge tone={c.decision === 'applied' ? 'success' : 'neutral'}>{t(`catalogue.decision.${c.decision ?? 'dismissed'}`)}</Badge>
                    ) : (
                      <div className="inline-flex gap-1">
                        <Button size="sm" onClick={() => apply(c)} disabled={decide.isPending} aria-label={t('catalogue.applyItem', { name })}>
                          <Check className="size-4" aria-hidden="true" />
                          {t('catalogue.apply')}
                        </Button>
                        <Button size="sm" variant="outline" onClick={() => run(c, 'dismissed')} disabled={decide.isPending} aria-label={t('catalogue.dismissItem', { name })}>
                          <X className="size-4" aria-hidden="true" />
                          {t('catalogue.dismiss')}
                        </Button>
                      </div>
                    )}
                  </td>
                </tr>
              );
            })}
          </Table>
        )}
      </QueryView>
      {sourcesOf ? <ServiceSourcesDialog service={{ id: sourcesOf, name: sourcesOf }} onClose={() => setSourcesOf(null)} /> : null}
      {importing ? <ApplyNewDialog change={importing} pending={decide.isPending} onClose={() => setImporting(null)} onApply={(markup) => run(importing, 'applied', markup)} /> : null}
    </Panel>
  );
}

/** Applying a new provider service no service uses: it becomes a service of the shop, with this markup. */
function ApplyNewDialog({ change, pending, onClose, onApply }: { change: CatalogChange; pending: boolean; onClose: () => void; onApply: (markup: { percent: string; fixedPer1000: string }) => void }) {
  const { t } = useTranslation('admin');
  const [draft, setDraft] = useState<MarkupDraft>(NO_MARKUP);
  const markup = parseMarkup(draft);
  return (
    <ConfirmDialog
      open
      onOpenChange={(o) => !o && onClose()}
      title={t('catalogue.applyNewTitle', { name: change.after?.name ?? change.serviceId })}
      description={t('catalogue.applyNewLead')}
      confirmLabel={t('catalogue.apply')}
      onConfirm={() => markup && onApply(markup)}
      pending={pending || !markup}
    >
      <MarkupFields value={draft} onChange={setDraft} />
      <div className="mt-3">
        <FormAlert>{markup ? null : t('catalogue.markupInvalid')}</FormAlert>
      </div>
    </ConfirmDialog>
  );
}
