import { ArrowDown, ArrowUp, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from '../../i18n';
import { Badge } from '../../components/ui/Badge';
import { Button } from '../../components/ui/Button';
import { Dialog } from '../../components/ui/Dialog';
import { Input } from '../../components/ui/Input';
import { formatMoneyDecimal } from '../../lib/format';
import { useLanguage } from '../../lib/language';
import { useProviders, useSaveServiceSources, useServiceSources, type AdminProvider, type ServiceSources } from './api';
import { FormAlert } from './dialogs';
import { notify, notifyError } from './format';
import { MarkupFields, parseMarkup, type MarkupDraft } from './MarkupFields';
import { Field, QueryView, Select, Toggle, useFailureNotice } from './ui';

/** One source as edited: what the server said of it, until it is saved again (null for a new one). */
interface Row {
  providerId: string;
  providerServiceId: string;
  known: ServiceSources['sources'][number] | null;
}

/**
 * A service's sources (src/server/catalog/sources.ts `setServiceSources`): the provider services
 * it is bought from, tried in this order (the first is the primary), each with its provider, id,
 * cost per 1000 and whether it is still listed; moved, added, removed, and its markup, which
 * prices it again from the primary when the team asks.
 */
export function ServiceSourcesDialog({ service, onClose }: { service: { id: string; name: string }; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const sources = useServiceSources(service.id);
  const providers = useProviders();
  useFailureNotice(sources, 'catalogue.sourcesNotLoaded');
  return (
    <Dialog open onOpenChange={(o) => !o && onClose()} title={t('catalogue.sourcesTitle', { name: service.name })} description={t('catalogue.sourcesLead')} closeLabel={t('common.close')} className="sm:max-w-2xl">
      <QueryView query={sources} error={t('catalogue.sourcesNotLoaded')} empty="" isEmpty={() => false}>
        {(data) => <SourcesEditor serviceId={service.id} initial={data} providers={providers.data ?? []} onClose={onClose} />}
      </QueryView>
    </Dialog>
  );
}

export function SourcesEditor({ serviceId, initial, providers, onClose }: { serviceId: string; initial: ServiceSources; providers: readonly AdminProvider[]; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  const save = useSaveServiceSources();
  const [rows, setRows] = useState<Row[]>(() => initial.sources.map((s) => ({ providerId: s.providerId, providerServiceId: s.providerServiceId, known: s })));
  const [markup, setMarkup] = useState<MarkupDraft>(initial.markup);
  const [reprice, setReprice] = useState(false);
  const unused = providers.filter((p) => !rows.some((r) => r.providerId === p.id));
  const [adding, setAdding] = useState({ providerId: '', providerServiceId: '' });
  const addProvider = adding.providerId || unused[0]?.id || '';
  const parsedMarkup = parseMarkup(markup);
  const nameOf = (id: string) => providers.find((p) => p.id === id)?.name ?? t('catalogue.unknownProvider');

  const move = (i: number, by: -1 | 1) =>
    setRows((list) => {
      const next = [...list];
      const [row] = next.splice(i, 1);
      next.splice(i + by, 0, row!);
      return next;
    });
  const add = () => {
    const id = adding.providerServiceId.trim();
    if (!addProvider || !id) return;
    setRows((list) => [...list, { providerId: addProvider, providerServiceId: id, known: null }]);
    setAdding({ providerId: '', providerServiceId: '' });
  };
  const problem = rows.length === 0 ? t('catalogue.noSources') : reprice && !parsedMarkup ? t('catalogue.markupInvalid') : null;

  const submit = () => {
    if (problem) return;
    save.mutate(
      { id: serviceId, input: { sources: rows.map((r) => ({ providerId: r.providerId, providerServiceId: r.providerServiceId })), ...(reprice && parsedMarkup ? { markup: parsedMarkup } : {}) } },
      {
        onSuccess: () => {
          notify.success(t('catalogue.sourcesSaved'));
          onClose();
        },
        onError: (err) => notifyError(t, 'catalogue.sourcesNotSaved', err),
      },
    );
  };

  return (
    <form
      noValidate
      className="space-y-5"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <ol className="space-y-2" aria-label={t('catalogue.sources')}>
        {rows.map((r, i) => {
          const label = `${nameOf(r.providerId)} ${r.providerServiceId}`;
          return (
            <li key={r.providerId} className="flex flex-wrap items-center gap-3 rounded-xl border border-slate-200 p-3" data-testid="service-source">
              <span className="grid size-7 shrink-0 place-items-center rounded-full bg-slate-100 text-xs font-semibold text-slate-700" aria-hidden="true">
                {i + 1}
              </span>
              <div className="min-w-[12rem] flex-1">
                <p className="text-sm font-medium text-slate-900">
                  {nameOf(r.providerId)} · <span className="font-mono">{r.providerServiceId}</span>{' '}
                  <Badge tone={i === 0 ? 'brand' : 'neutral'}>{i === 0 ? t('catalogue.primary') : t('catalogue.fallback', { n: i })}</Badge>
                </p>
                <p className="text-xs text-slate-500">
                  {r.known ? (
                    <>
                      {r.known.name ?? '—'} · {r.known.costPer1000 === null ? '—' : t('catalogue.costIs', { cost: formatMoneyDecimal(r.known.costPer1000, 'USD', lang) })} ·{' '}
                      {r.known.present ? t('catalogue.listed') : <span className="text-rose-600">{t('catalogue.notListed')}</span>}
                    </>
                  ) : (
                    t('catalogue.unsaved')
                  )}
                </p>
              </div>
              <div className="flex gap-1">
                <Button size="sm" variant="ghost" onClick={() => move(i, -1)} disabled={i === 0} aria-label={t('catalogue.moveUp', { name: label })}>
                  <ArrowUp className="size-4" aria-hidden="true" />
                </Button>
                <Button size="sm" variant="ghost" onClick={() => move(i, 1)} disabled={i === rows.length - 1} aria-label={t('catalogue.moveDown', { name: label })}>
                  <ArrowDown className="size-4" aria-hidden="true" />
                </Button>
                <Button size="sm" variant="ghost" className="text-rose-600 hover:bg-rose-50" onClick={() => setRows((list) => list.filter((_, j) => j !== i))} aria-label={t('catalogue.remove', { name: label })}>
                  <Trash2 className="size-4" aria-hidden="true" />
                </Button>
              </div>
            </li>
          );
        })}
      </ol>

      {unused.length ? (
        <fieldset className="grid gap-3 rounded-xl bg-slate-50 p-3 sm:grid-cols-[1fr_1fr_auto] sm:items-end">
          <legend className="sr-only">{t('catalogue.addSource')}</legend>
          <Field label={t('catalogue.provider')}>
            {(control) => (
              <Select {...control} value={addProvider} onChange={(e) => setAdding((a) => ({ ...a, providerId: e.target.value }))}>
                {unused.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name}
                  </option>
                ))}
              </Select>
            )}
          </Field>
          <Field label={t('catalogue.providerServiceId')}>
            {(control) => (
              <Input
                {...control}
                value={adding.providerServiceId}
                maxLength={64}
                autoComplete="off"
                onChange={(e) => setAdding((a) => ({ ...a, providerServiceId: e.target.value }))}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') {
                    e.preventDefault();
                    add();
                  }
                }}
              />
            )}
          </Field>
          <Button variant="outline" onClick={add} disabled={!adding.providerServiceId.trim()}>
            <Plus className="size-4" aria-hidden="true" />
            {t('catalogue.addSource')}
          </Button>
        </fieldset>
      ) : null}

      <div className="space-y-3">
        <Toggle label={t('catalogue.reprice')} description={t('catalogue.repriceHint')} checked={reprice} onChange={setReprice} />
        {reprice ? <MarkupFields value={markup} onChange={setMarkup} /> : null}
      </div>
      <FormAlert>{problem}</FormAlert>
      <div className="flex justify-end gap-2">
        <Button variant="outline" onClick={onClose}>
          {t('common.cancel')}
        </Button>
        <Button type="submit" disabled={!!problem || save.isPending} aria-busy={save.isPending}>
          {t('common.save')}
        </Button>
      </div>
    </form>
  );
}
