import { useMemo, useState } from 'react';
import { useTranslation } from '../../i18n';
import { Input } from '../../components/ui/Input';
import { applyNameRules, displayNames, previewNames, type NamedService, type NameRule } from '../../../core/serviceNames';
import { ApiError } from '../../lib/api';
import { useApiServices, useDeleteServiceName, useSaveServiceName, useServiceNames, type ServiceName } from './api';
import { DeleteDialog, FormAlert, FormDialog } from './dialogs';
import { notify } from './format';
import { EditDeleteCell, Field, InputField, NewButton, Panel, QueryView, Select, Table, td, Th, useFailureNotice } from './ui';

const LANGS = ['az', 'tr'] as const;

/** The rules of saved names, as the storefront applies them (src/core/serviceNames.ts). */
export const nameRulesOf = (names: readonly ServiceName[]): NameRule[] =>
  names.flatMap((n) => LANGS.map((lang) => ({ keyword: n.apiServiceName, lang, name: n[lang], serviceId: n.serviceId })));

/** Per-language display names: words of provider names with their az and tr wording (docs/rules.md#catalogue). */
export function ServiceNamesTab() {
  const { t } = useTranslation('admin');
  const names = useServiceNames();
  const [editing, setEditing] = useState<ServiceName | 'new' | null>(null);
  const [deleting, setDeleting] = useState<ServiceName | null>(null);
  const remove = useDeleteServiceName();

  useFailureNotice(names, 'notices.serviceNamesNotLoaded');

  return (
    <Panel>
      <div className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-200 p-4">
        <p className="max-w-2xl text-sm text-slate-600">{t('names.lead')}</p>
        <NewButton onClick={() => setEditing('new')}>{t('names.new')}</NewButton>
      </div>
      <QueryView query={names} error={t('notices.serviceNamesNotLoaded')} empty={t('names.empty')} isEmpty={(data) => data.length === 0}>
        {(data) => (
          <Table
            label={t('services.tabs.names')}
            minWidth="min-w-[640px]"
            head={
              <>
                <Th>{t('names.apiName')}</Th>
                <Th>{t('names.az')}</Th>
                <Th>{t('names.tr')}</Th>
                <Th>{t('names.scope')}</Th>
                <Th className="text-right">{t('common.actions')}</Th>
              </>
            }
          >
            {data.map((n) => (
              <tr key={n.apiServiceName} data-testid="service-name-row">
                <td className={`${td} font-medium text-slate-900`}>{n.apiServiceName}</td>
                <td className={td}>{n.az || '—'}</td>
                <td className={td}>{n.tr || '—'}</td>
                <td className={td}>{n.serviceId ? `#${n.serviceId}` : t('names.allServices')}</td>
                <EditDeleteCell name={n.apiServiceName} onEdit={() => setEditing(n)} onDelete={() => setDeleting(n)} />
              </tr>
            ))}
          </Table>
        )}
      </QueryView>
      {editing ? <NameDialog name={editing === 'new' ? null : editing} saved={names.data ?? []} onClose={() => setEditing(null)} /> : null}
      <DeleteDialog
        item={deleting}
        onClose={() => setDeleting(null)}
        remove={remove}
        variables={(n) => n.apiServiceName}
        title={t('names.deleteTitle')}
        description={(n) => t('names.deleteText', { name: n.apiServiceName })}
        onDone={(n) => notify.success(t('notices.serviceNameDeleted'), n.apiServiceName)}
        failedKey="notices.operationFailed"
      />
    </Panel>
  );
}

function NameDialog({ name, saved, onClose }: { name: ServiceName | null; saved: readonly ServiceName[]; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const save = useSaveServiceName();
  const api = useApiServices();
  const [form, setForm] = useState<ServiceName>(name ?? { apiServiceName: '', az: '', tr: '', serviceId: null });
  const [oneService, setOneService] = useState(Boolean(name?.serviceId));
  const [error, setError] = useState<string | null>(null);
  const set = (k: 'apiServiceName' | 'az' | 'tr' | 'serviceId', v: string) => setForm((f) => ({ ...f, [k]: v }));
  const services = api.data ?? [];
  const input: ServiceName = {
    apiServiceName: form.apiServiceName.trim(),
    az: form.az.trim(),
    tr: form.tr.trim(),
    serviceId: oneService ? (form.serviceId ?? '').trim() || null : null,
  };
  const chosen = input.serviceId ? services.find((s) => s.id === input.serviceId) : undefined;
  // The saved names before and after this one is saved, for the preview.
  const before = useMemo(() => nameRulesOf(saved), [saved]);
  const { apiServiceName, az, tr, serviceId } = input;
  const after = useMemo(() => {
    const others = saved.filter((n) => n.apiServiceName !== name?.apiServiceName);
    // Limited to one service that is not chosen yet, the name renames nothing.
    const complete = apiServiceName && (!oneService || serviceId);
    return nameRulesOf(complete ? [...others, { apiServiceName, az, tr, serviceId }] : others);
  }, [saved, name, apiServiceName, az, tr, serviceId, oneService]);

  const submit = () => {
    if (!input.apiServiceName || !input.az || !input.tr) {
      setError(t('names.fillAll'));
      return;
    }
    if (oneService && !chosen) {
      setError(t('names.chooseService'));
      return;
    }
    setError(null);
    save.mutate(
      { original: name?.apiServiceName, input },
      {
        onSuccess: () => {
          notify.success(name ? t('notices.serviceNameUpdated') : t('notices.serviceNameCreated'), input.apiServiceName);
          onClose();
        },
        onError: (err) => {
          const message = err instanceof ApiError && err.code === 'DUPLICATE' ? t('names.duplicate') : t('notices.operationFailed');
          setError(message);
          notify.error(message);
        },
      },
    );
  };

  return (
    <FormDialog title={name ? t('names.editTitle') : t('names.newTitle')} onClose={onClose} onSubmit={submit} pending={save.isPending} className="sm:max-w-3xl" formClassName="space-y-4">
      <Field label={t('names.apiName')} hint={t('names.apiNameHint')}>
        {(control) => (
          <>
            <Input {...control} list="api-service-names" value={form.apiServiceName} onChange={(e) => set('apiServiceName', e.target.value)} maxLength={200} required />
            <datalist id="api-service-names">
              {[...new Set(services.map((s) => s.name))].slice(0, 500).map((n) => (
                <option key={n} value={n} />
              ))}
            </datalist>
          </>
        )}
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <InputField label={t('names.az')} value={form.az} onChange={(e) => set('az', e.target.value)} maxLength={200} required lang="az" />
        <InputField label={t('names.tr')} value={form.tr} onChange={(e) => set('tr', e.target.value)} maxLength={200} required lang="tr" />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label={t('names.scope')}>
          {(control) => (
            <Select {...control} value={oneService ? 'one' : 'all'} onChange={(e) => setOneService(e.target.value === 'one')}>
              <option value="all">{t('names.scopeAll')}</option>
              <option value="one">{t('names.scopeOne')}</option>
            </Select>
          )}
        </Field>
        {oneService ? (
          <Field label={t('names.service')} hint={chosen ? chosen.name : t('names.serviceHint')}>
            {(control) => (
              <>
                <Input
                  {...control}
                  list="api-service-ids"
                  value={form.serviceId ?? ''}
                  onChange={(e) => {
                    const id = e.target.value;
                    set('serviceId', id);
                    // Choosing a service fills in its whole name as the words to translate.
                    const match = services.find((s) => s.id === id.trim());
                    if (match && !form.apiServiceName.trim()) set('apiServiceName', match.name);
                  }}
                  maxLength={64}
                  inputMode="numeric"
                />
                <datalist id="api-service-ids">
                  {matching(services, input.apiServiceName).map((s) => (
                    <option key={s.id} value={s.id}>
                      {s.name}
                    </option>
                  ))}
                </datalist>
              </>
            )}
          </Field>
        ) : null}
      </div>
      <NamePreview services={services} loading={api.isPending} before={before} after={after} />
      <FormAlert>{error}</FormAlert>
    </FormDialog>
  );
}

/** Services whose names have the words (all of them while none are typed), at most 200. */
function matching(services: readonly NamedService[], keyword: string): NamedService[] {
  const probe: NameRule[] = [{ keyword, lang: 'az', name: '\u0000' }];
  return (keyword.trim() ? services.filter((s) => applyNameRules(s, 'az', probe) !== s.name) : services).slice(0, 200);
}

const PREVIEW_ROWS = 50;

/**
 * What saving does to the catalogue's names, computed in the browser with the storefront's own
 * rule: the count of services renamed, and each one's provider name with its az and tr names.
 */
export function NamePreview({ services, loading = false, before, after }: { services: readonly NamedService[]; loading?: boolean; before: readonly NameRule[]; after: readonly NameRule[] }) {
  const { t } = useTranslation('admin');
  const { rows, renamed } = useMemo(() => {
    const previews = LANGS.map((lang) => new Map(previewNames(services, lang, before, after).map((r) => [r.id, r])));
    const names = LANGS.map((lang) => displayNames(services, lang, after));
    const list = services
      .filter((s) => previews.some((p) => p.has(s.id)))
      .map((s) => ({ service: s, langs: LANGS.map((lang, i) => ({ lang, name: names[i]!.get(s.id) ?? s.name, clash: previews[i]!.get(s.id)?.clash ?? false })) }));
    const changed = (id: string) => previews.some((p) => {
      const row = p.get(id);
      return row !== undefined && row.after !== row.before;
    });
    return { rows: list, renamed: list.filter((r) => changed(r.service.id)).length };
  }, [services, before, after]);
  return (
    <section aria-labelledby="name-preview-title" data-testid="name-preview" className="rounded-xl border border-slate-200 bg-slate-50">
      <div className="flex flex-wrap items-baseline justify-between gap-2 border-b border-slate-200 px-3 py-2">
        <h3 id="name-preview-title" className="text-sm font-semibold text-slate-900">
          {t('names.preview.title')}
        </h3>
        <p className="text-sm text-slate-600" data-testid="name-preview-count" aria-live="polite">
          {loading ? t('names.preview.loading') : rows.length ? t('names.preview.count', { count: renamed }) : t('names.preview.none')}
        </p>
      </div>
      {rows.length ? (
        <ul className="max-h-72 divide-y divide-slate-200 overflow-y-auto text-sm">
          {rows.slice(0, PREVIEW_ROWS).map(({ service, langs }) => (
            <li key={service.id} data-testid="name-preview-row" className="grid gap-1 px-3 py-2 sm:grid-cols-3 sm:gap-3">
              <span className="break-words text-slate-500">
                <span className="sr-only">{t('names.preview.provider')}: </span>#{service.id} {service.name}
              </span>
              {langs.map(({ lang, name, clash }) => (
                <span key={lang} lang={lang} className={`break-words font-medium ${clash ? 'text-amber-700' : 'text-slate-900'}`}>
                  <span className="sr-only">{t(`names.${lang}`)}: </span>
                  <span aria-hidden="true" className="mr-1.5 text-xs font-semibold uppercase text-slate-400">
                    {lang}
                  </span>
                  {name}
                  {clash ? <span className="block text-xs font-normal">{t('names.preview.clash')}</span> : null}
                </span>
              ))}
            </li>
          ))}
          {rows.length > PREVIEW_ROWS ? <li className="px-3 py-2 text-slate-500">{t('names.preview.more', { count: rows.length - PREVIEW_ROWS })}</li> : null}
        </ul>
      ) : null}
    </section>
  );
}
