import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { useTranslation } from '../../i18n';
import { serviceNameInputSchema } from '../../../core/contracts/admin';
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

/**
 * The service name form: the API name and the az and tr names, all required once trimmed (else
 * the message `fillAll`), and, limited to one service, a service of the catalogue `ids` holds
 * (else `chooseService`); handed on as the contract's service name body.
 */
export const serviceNameFormSchema = (ids: ReadonlySet<string>) =>
  z
    .object({ apiServiceName: z.string(), az: z.string(), tr: z.string(), scope: z.enum(['all', 'one']), serviceId: z.string() })
    .superRefine(({ apiServiceName, az, tr, scope, serviceId }, ctx) => {
      if (!apiServiceName.trim() || !az.trim() || !tr.trim()) ctx.addIssue({ code: 'custom', path: ['apiServiceName'], message: 'fillAll' });
      else if (scope === 'one' && !ids.has(serviceId.trim())) ctx.addIssue({ code: 'custom', path: ['serviceId'], message: 'chooseService' });
    })
    .transform(({ apiServiceName, az, tr, scope, serviceId }): z.input<typeof serviceNameInputSchema> => ({
      apiServiceName,
      az,
      tr,
      serviceId: scope === 'one' ? serviceId.trim() || null : null,
    }))
    .pipe(serviceNameInputSchema);

function NameDialog({ name, saved, onClose }: { name: ServiceName | null; saved: readonly ServiceName[]; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const save = useSaveServiceName();
  const api = useApiServices();
  const services = useMemo(() => api.data ?? [], [api.data]);
  const schema = useMemo(() => serviceNameFormSchema(new Set(services.map((s) => s.id))), [services]);
  // One message for the whole form, kept until the next attempt; the submit button keeps the focus.
  const form = useForm<z.input<typeof schema>, unknown, z.output<typeof schema>>({
    resolver: zodResolver(schema),
    reValidateMode: 'onSubmit',
    shouldFocusError: false,
    defaultValues: { apiServiceName: name?.apiServiceName ?? '', az: name?.az ?? '', tr: name?.tr ?? '', scope: name?.serviceId ? 'one' : 'all', serviceId: name?.serviceId ?? '' },
  });
  const { errors } = form.formState;
  const values = form.watch();
  const oneService = values.scope === 'one';
  const apiServiceName = values.apiServiceName.trim();
  const az = values.az.trim();
  const tr = values.tr.trim();
  const serviceId = oneService ? values.serviceId.trim() || null : null;
  const chosen = serviceId ? services.find((s) => s.id === serviceId) : undefined;
  // The saved names before and after this one is saved, for the preview.
  const before = useMemo(() => nameRulesOf(saved), [saved]);
  const after = useMemo(() => {
    const others = saved.filter((n) => n.apiServiceName !== name?.apiServiceName);
    // Limited to one service that is not chosen yet, the name renames nothing.
    const complete = apiServiceName && (!oneService || serviceId);
    return nameRulesOf(complete ? [...others, { apiServiceName, az, tr, serviceId }] : others);
  }, [saved, name, apiServiceName, az, tr, serviceId, oneService]);
  const serviceIdField = form.register('serviceId');

  const send = (input: ServiceName) => {
    save.mutate(
      { original: name?.apiServiceName, input },
      {
        onSuccess: () => {
          notify.success(name ? t('notices.serviceNameUpdated') : t('notices.serviceNameCreated'), input.apiServiceName);
          onClose();
        },
        onError: (err) => {
          const message = err instanceof ApiError && err.code === 'DUPLICATE' ? t('names.duplicate') : t('notices.operationFailed');
          form.setError('root', { message });
          notify.error(message);
        },
      },
    );
  };
  const error = errors.apiServiceName ? t('names.fillAll') : errors.serviceId ? t('names.chooseService') : errors.root?.message;

  return (
    <FormDialog
      title={name ? t('names.editTitle') : t('names.newTitle')}
      onClose={onClose}
      onSubmit={() => void form.handleSubmit(send)()}
      pending={save.isPending}
      className="sm:max-w-3xl"
      formClassName="space-y-4"
    >
      <Field label={t('names.apiName')} hint={t('names.apiNameHint')}>
        {(control) => (
          <>
            <Input {...control} list="api-service-names" {...form.register('apiServiceName')} maxLength={200} required />
            <datalist id="api-service-names">
              {[...new Set(services.map((s) => s.name))].slice(0, 500).map((n) => (
                <option key={n} value={n} />
              ))}
            </datalist>
          </>
        )}
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <InputField label={t('names.az')} {...form.register('az')} maxLength={200} required lang="az" />
        <InputField label={t('names.tr')} {...form.register('tr')} maxLength={200} required lang="tr" />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label={t('names.scope')}>
          {(control) => (
            <Select {...control} {...form.register('scope')}>
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
                  {...serviceIdField}
                  onChange={(e) => {
                    void serviceIdField.onChange(e);
                    // Choosing a service fills in its whole name as the words to translate.
                    const match = services.find((s) => s.id === e.target.value.trim());
                    if (match && !form.getValues('apiServiceName').trim()) form.setValue('apiServiceName', match.name);
                  }}
                  maxLength={64}
                  inputMode="numeric"
                />
                <datalist id="api-service-ids">
                  {matching(services, apiServiceName).map((s) => (
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
  return (keyword.trim() ? services.filter((s) => applyNameRules(s, 'az', probe, []) !== s.name) : services).slice(0, 200);
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
