import { ArrowLeft, Download } from 'lucide-react';
import { useMemo, useState } from 'react';
import { platformDisplayName } from '../../../core/platforms';
import { useTranslation } from '../../i18n';
import { Badge } from '../../components/ui/Badge';
import { Button } from '../../components/ui/Button';
import { Dialog } from '../../components/ui/Dialog';
import { formatMoneyDecimal, formatNumber } from '../../lib/format';
import { useLanguage } from '../../lib/language';
import { useImportPreview, useImportServices, useProviderServices, type AdminProvider, type CatalogImportInput, type ProviderService } from './api';
import { FormAlert } from './dialogs';
import { notify, notifyError } from './format';
import { MarkupFields, NO_MARKUP, parseMarkup, type MarkupDraft } from './MarkupFields';
import { CardsOrTable, Field, QueryView, SearchField, Select, Table, td, Th, useFailureNotice } from './ui';

/** A category of a provider's catalogue: its platform and type, as one value of the picker. */
const SEP = '\u001f';
const categoryKey = (s: { platform: string; type: string }) => `${s.platform}${SEP}${s.type}`;
/** "Instagram · Followers"; a service without a platform shows its type alone. */
const categoryLabel = (c: { platform: string; type: string }) => [c.platform ? platformDisplayName(c.platform) : '', c.type].filter(Boolean).join(' · ');
const categoryOf = (key: string) => {
  const [platform = '', type = ''] = key.split(SEP);
  return { platform, type };
};

type Selection = { serviceIds: string[] } | { category: { platform: string; type: string } };

/**
 * A provider's catalogue as last read (src/server/catalog/sources.ts): searchable, by category,
 * with checkboxes; the chosen services (or a whole category) go on to the import step, where a
 * markup is typed and the selling prices are previewed before anything is saved.
 */
export function ProviderServicesDialog({ provider, onClose }: { provider: AdminProvider; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const [importing, setImporting] = useState<Selection | null>(null);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  return (
    <Dialog
      open
      onOpenChange={(o) => !o && onClose()}
      title={importing ? t('catalogue.importTitle', { name: provider.name }) : t('catalogue.servicesTitle', { name: provider.name })}
      description={importing ? t('catalogue.importLead') : t('catalogue.servicesLead')}
      closeLabel={t('common.close')}
      className="sm:max-w-5xl"
    >
      {importing ? (
        <ImportStep providerId={provider.id} selection={importing} onBack={() => setImporting(null)} onDone={() => (setSelected(new Set()), setImporting(null))} />
      ) : (
        <ServicesStep providerId={provider.id} selected={selected} onSelect={setSelected} onImport={setImporting} />
      )}
    </Dialog>
  );
}

function ServicesStep({
  providerId,
  selected,
  onSelect,
  onImport,
}: {
  providerId: string;
  selected: ReadonlySet<string>;
  onSelect: (next: ReadonlySet<string>) => void;
  onImport: (selection: Selection) => void;
}) {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  const services = useProviderServices(providerId);
  const [q, setQ] = useState('');
  const [category, setCategory] = useState('');
  useFailureNotice(services, 'catalogue.servicesNotLoaded');

  const categories = useMemo(() => [...new Set((services.data ?? []).map(categoryKey))], [services.data]);
  const rows = useMemo(() => {
    const words = q.trim().toLowerCase();
    return (services.data ?? []).filter((s) => (!category || categoryKey(s) === category) && (!words || s.name.toLowerCase().includes(words) || s.providerServiceId === words));
  }, [services.data, q, category]);
  const selectable = rows.filter((s) => s.present);
  const allShown = selectable.length > 0 && selectable.every((s) => selected.has(s.providerServiceId));

  const toggle = (id: string, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(id);
    else next.delete(id);
    onSelect(next);
  };
  const toggleShown = (on: boolean) => {
    const next = new Set(selected);
    for (const s of selectable) if (on) next.add(s.providerServiceId);
    else next.delete(s.providerServiceId);
    onSelect(next);
  };

  return (
    <div className="space-y-4">
      <div className="grid gap-3 sm:grid-cols-2">
        <SearchField id={`provider-services-q-${providerId}`} label={t('catalogue.filter')} value={q} onChange={setQ} placeholder={t('catalogue.filter')} />
        <Field label={t('catalogue.category')} className="[&>label]:sr-only">
          {(control) => (
            <Select {...control} value={category} onChange={(e) => setCategory(e.target.value)}>
              <option value="">{t('catalogue.allCategories')}</option>
              {categories.map((key) => {
                return (
                  <option key={key} value={key}>
                    {categoryLabel(categoryOf(key))}
                  </option>
                );
              })}
            </Select>
          )}
        </Field>
      </div>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-slate-600" aria-live="polite">
          {t('catalogue.selected', { count: selected.size })}
        </p>
        <div className="flex flex-wrap gap-2">
          {category ? (
            <Button size="sm" variant="outline" onClick={() => onImport({ category: categoryOf(category) })}>
              <Download className="size-4" aria-hidden="true" />
              {t('catalogue.importCategory')}
            </Button>
          ) : null}
          <Button size="sm" onClick={() => onImport({ serviceIds: [...selected] })} disabled={selected.size === 0}>
            <Download className="size-4" aria-hidden="true" />
            {t('catalogue.importSelected', { count: selected.size })}
          </Button>
        </div>
      </div>
      <QueryView query={services} error={t('catalogue.servicesNotLoaded')} empty={services.data?.length ? t('catalogue.noMatch') : t('catalogue.servicesEmpty')} isEmpty={() => rows.length === 0}>
        {() => (
          <Table
            label={t('catalogue.services')}
            minWidth="min-w-[820px]"
            head={
              <>
                <Th>
                  <input
                    type="checkbox"
                    className="size-4 accent-brand-600"
                    checked={allShown}
                    onChange={(e) => toggleShown(e.target.checked)}
                    disabled={selectable.length === 0}
                    aria-label={t('catalogue.selectShown')}
                  />
                </Th>
                <Th>{t('catalogue.id')}</Th>
                <Th>{t('catalogue.name')}</Th>
                <Th>{t('catalogue.category')}</Th>
                <Th className="text-right">{t('catalogue.minMax')}</Th>
                <Th className="text-right">{t('catalogue.cost')}</Th>
                <Th>{t('catalogue.usedBy')}</Th>
              </>
            }
          >
            {rows.map((s) => (
              <ProviderServiceRow key={s.providerServiceId} s={s} checked={selected.has(s.providerServiceId)} onToggle={(on) => toggle(s.providerServiceId, on)} lang={lang} />
            ))}
          </Table>
        )}
      </QueryView>
    </div>
  );
}

function ProviderServiceRow({ s, checked, onToggle, lang }: { s: ProviderService; checked: boolean; onToggle: (on: boolean) => void; lang: ReturnType<typeof useLanguage> }) {
  const { t } = useTranslation('admin');
  return (
    <tr data-testid="provider-service-row">
      <td className={td}>
        <input type="checkbox" className="size-4 accent-brand-600" checked={checked} onChange={(e) => onToggle(e.target.checked)} disabled={!s.present} aria-label={t('catalogue.selectItem', { name: s.name })} />
      </td>
      <td className={`${td} font-mono text-xs text-slate-500`}>{s.providerServiceId}</td>
      <td className={`${td} font-medium text-slate-900`}>
        {s.name} {s.present ? null : <Badge tone="danger">{t('catalogue.notListed')}</Badge>}
      </td>
      <td className={td}>{categoryLabel(s)}</td>
      <td className={`${td} whitespace-nowrap text-right tabular-nums`}>{t('catalogue.bounds', { min: formatNumber(s.min, lang), max: formatNumber(s.max, lang) })}</td>
      <td className={`${td} whitespace-nowrap text-right tabular-nums`}>{s.costPer1000 === null ? '—' : formatMoneyDecimal(s.costPer1000, 'USD', lang)}</td>
      <td className={`${td} font-mono text-xs`}>{s.services.length ? s.services.map((u) => u.serviceId).join(', ') : '—'}</td>
    </tr>
  );
}

/** The import step: the markup, the preview of the prices customers will see, then the import. */
export function ImportStep({ providerId, selection, onBack, onDone }: { providerId: string; selection: Selection; onBack: () => void; onDone: () => void }) {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  const [draft, setDraft] = useState<MarkupDraft>(NO_MARKUP);
  const markup = parseMarkup(draft);
  const input: CatalogImportInput | null = markup ? { providerId, ...selection, markup } : null;
  const preview = useImportPreview(input);
  const run = useImportServices();
  useFailureNotice(preview, 'catalogue.previewNotLoaded');

  const submit = () => {
    if (!input) return;
    run.mutate(input, {
      onSuccess: (r) => {
        notify.success(t('catalogue.imported', { count: r.created.length }), r.created.map((c) => c.id).join(', '));
        onDone();
      },
      onError: (err) => notifyError(t, 'catalogue.importFailed', err),
    });
  };
  const lines = preview.data ?? [];
  const stale = preview.isPlaceholderData || preview.isFetching;

  return (
    <form
      noValidate
      className="space-y-5"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <MarkupFields value={draft} onChange={setDraft} />
      <section aria-labelledby={`import-preview-${providerId}`} className="space-y-2">
        <h3 id={`import-preview-${providerId}`} className="text-sm font-semibold text-slate-900">
          {t('catalogue.preview')}
        </h3>
        <p className="text-xs text-slate-500">{t('catalogue.previewLead')}</p>
        <div aria-busy={stale}>
          <QueryView query={preview} error={t('catalogue.previewNotLoaded')} empty={t('catalogue.noMatch')} isEmpty={(d) => d.length === 0}>
            {(data) => (
              <CardsOrTable
                cards={data.map((l) => (
                  <li key={l.providerServiceId} className="space-y-1 py-3" data-testid="import-preview-card">
                    <p className="text-sm font-medium text-slate-900">
                      <span className="font-mono text-xs text-slate-500">{l.providerServiceId}</span> {l.name}
                    </p>
                    {l.importedAs.length ? <p className="text-xs text-amber-700">{t('catalogue.alreadyImported', { ids: l.importedAs.join(', ') })}</p> : null}
                    <p className="text-sm tabular-nums text-slate-700">
                      {formatMoneyDecimal(l.cost, 'USD', lang)} → <span className="font-semibold text-slate-900">{l.price === null ? '—' : formatMoneyDecimal(l.price, 'USD', lang)}</span>{' '}
                      <span className="text-xs text-slate-500">{t('catalogue.per', { per: formatNumber(l.per, lang) })}</span>
                    </p>
                  </li>
                ))}
              >
                <Table
                  label={t('catalogue.preview')}
                  minWidth="min-w-[640px]"
                  head={
                    <>
                      <Th>{t('catalogue.id')}</Th>
                      <Th>{t('catalogue.name')}</Th>
                      <Th className="text-right">{t('catalogue.providerPrice')}</Th>
                      <Th className="text-right">{t('catalogue.sellingPrice')}</Th>
                    </>
                  }
                >
                  {data.map((l) => (
                    <tr key={l.providerServiceId} data-testid="import-preview-row">
                      <td className={`${td} font-mono text-xs text-slate-500`}>{l.providerServiceId}</td>
                      <td className={td}>
                        <p className="font-medium text-slate-900">{l.name}</p>
                        {l.importedAs.length ? <p className="text-xs text-amber-700">{t('catalogue.alreadyImported', { ids: l.importedAs.join(', ') })}</p> : null}
                      </td>
                      <td className={`${td} whitespace-nowrap text-right tabular-nums`}>
                        {formatMoneyDecimal(l.cost, 'USD', lang)} <span className="text-xs text-slate-500">{t('catalogue.per', { per: formatNumber(l.per, lang) })}</span>
                      </td>
                      <td className={`${td} whitespace-nowrap text-right font-semibold tabular-nums text-slate-900`} data-testid="import-preview-price">
                        {l.price === null ? '—' : formatMoneyDecimal(l.price, 'USD', lang)} <span className="text-xs font-normal text-slate-500">{t('catalogue.per', { per: formatNumber(l.per, lang) })}</span>
                      </td>
                    </tr>
                  ))}
                </Table>
              </CardsOrTable>
            )}
          </QueryView>
        </div>
      </section>
      <FormAlert>{markup ? null : t('catalogue.markupInvalid')}</FormAlert>
      <div className="flex flex-wrap justify-between gap-2">
        <Button variant="outline" onClick={onBack}>
          <ArrowLeft className="size-4" aria-hidden="true" />
          {t('catalogue.back')}
        </Button>
        <Button type="submit" disabled={!input || lines.length === 0 || stale || run.isPending} aria-busy={run.isPending}>
          {t('catalogue.importSubmit', { count: lines.length })}
        </Button>
      </div>
    </form>
  );
}
