import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { z } from 'zod';
import { useTranslation } from '../../i18n';
import { LANGUAGES, type Language } from '../../../core/i18n';
import { localServiceInputSchema } from '../../../core/contracts/admin';
import { platformDisplayName } from '../../../core/platforms';
import { Badge } from '../../components/ui/Badge';
import { useLanguage } from '../../lib/language';
import { useDeleteService, useLocalServices, useSaveService, type LocalService, type LocalServiceInput, type Localized } from './api';
import { DeleteDialog, FormDialog } from './dialogs';
import { LocalizedFields, type LocalizedField } from './LocalizedFields';
import { notify, notifyError } from './format';
import { parseAznToQepik, parseOrderIndex, qepikToInput } from './forms';
import { EditDeleteCell, Field, InputField, NewButton, Panel, QueryView, Select, Table, td, Th, Toggle, useFailureNotice } from './ui';
import { formatMoney } from '../../lib/format';

type Sort = 'site' | 'asc' | 'desc';

/** Orders by price, services without a price last either way; `site` keeps the order the site lists them in. */
export function sortByPrice<T extends { priceQepik: number | null }>(rows: readonly T[], sort: Sort): T[] {
  if (sort === 'site') return [...rows];
  return [...rows].sort((a, b) => {
    if (a.priceQepik === null || b.priceQepik === null) return a.priceQepik === b.priceQepik ? 0 : a.priceQepik === null ? 1 : -1;
    return sort === 'asc' ? a.priceQepik - b.priceQepik : b.priceQepik - a.priceQepik;
  });
}

/** The agency's own services: price sort, create/edit dialog, delete with confirmation. */
export function LocalServicesTab() {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  const services = useLocalServices();
  const [sort, setSort] = useState<Sort>('site');
  const [editing, setEditing] = useState<LocalService | 'new' | null>(null);
  const [deleting, setDeleting] = useState<LocalService | null>(null);
  const remove = useDeleteService();
  const rows = useMemo(() => sortByPrice(services.data ?? [], sort), [services.data, sort]);

  useFailureNotice(services, 'notices.servicesNotLoaded');

  return (
    <Panel>
      <div className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-200 p-4">
        <div className="flex items-center gap-2">
          <label htmlFor="price-sort" className="text-sm font-medium text-slate-700">
            {t('services.sort')}
          </label>
          <Select id="price-sort" value={sort} onChange={(e) => setSort(e.target.value as Sort)} className="w-auto">
            <option value="site">{t('services.sortSite')}</option>
            <option value="asc">{t('services.sortAsc')}</option>
            <option value="desc">{t('services.sortDesc')}</option>
          </Select>
        </div>
        <NewButton onClick={() => setEditing('new')}>{t('services.new')}</NewButton>
      </div>
      <QueryView query={services} error={t('notices.servicesNotLoaded')} empty={t('services.empty')} isEmpty={() => rows.length === 0}>
        {() => (
          <Table
            label={t('services.tabs.local')}
            minWidth="min-w-[820px]"
            head={
              <>
                <Th>{t('services.name')}</Th>
                <Th>{t('services.category')}</Th>
                <Th>{t('services.platform')}</Th>
                <Th className="text-right">{t('services.price')}</Th>
                <Th>{t('services.state')}</Th>
                <Th className="text-right">{t('services.orderIndex')}</Th>
                <Th className="text-right">{t('common.actions')}</Th>
              </>
            }
          >
            {rows.map((s) => (
              <tr key={s.id} data-testid="local-service-row">
                <td className={td}>
                  <p className="font-medium text-slate-900" lang={lang}>
                    {s.name[lang]}
                  </p>
                  {s.description[lang] ? (
                    <p className="max-w-72 truncate text-xs text-slate-500" lang={lang}>
                      {s.description[lang]}
                    </p>
                  ) : null}
                </td>
                <td className={td}>{t(`services.categories.${s.category}`)}</td>
                <td className={td}>{s.platform ? platformDisplayName(s.platform) : '—'}</td>
                <td className={`${td} whitespace-nowrap text-right font-medium tabular-nums`}>{s.priceQepik === null ? '—' : formatMoney(s.priceQepik, 'AZN', lang)}</td>
                <td className={td}>
                  <Badge tone={s.active ? 'success' : 'neutral'}>{s.active ? t('services.active') : t('services.inactive')}</Badge>
                </td>
                <td className={`${td} text-right tabular-nums`}>{s.orderIndex}</td>
                <EditDeleteCell name={s.name[lang]} onEdit={() => setEditing(s)} onDelete={() => setDeleting(s)} />
              </tr>
            ))}
          </Table>
        )}
      </QueryView>
      {editing ? <ServiceDialog service={editing === 'new' ? null : editing} onClose={() => setEditing(null)} /> : null}
      <DeleteDialog
        item={deleting}
        onClose={() => setDeleting(null)}
        remove={remove}
        variables={(s) => s.id}
        title={t('services.deleteTitle')}
        description={(s) => t('services.deleteText', { name: s.name[lang] })}
        onDone={(s) => notify.success(t('notices.serviceDeleted'), s.name[lang])}
        failedKey="notices.serviceNotDeleted"
      />
    </Panel>
  );
}

const localizedText = z.object({ az: z.string(), tr: z.string(), en: z.string() });

/**
 * The local service form: texts in three languages (the name required in each; a blank one's
 * issue is `required` at its language), the price in AZN (`priceInvalid`), the list position
 * (`orderIndexInvalid`), each in the contract's range, and the rest as chosen; handed on as the
 * contract's body, which trims the texts.
 */
export const localServiceFormSchema = z
  .object({
    name: localizedText,
    description: localizedText,
    details: localizedText,
    benefits: localizedText,
    price: z.string(),
    category: z.enum(['standard', 'social_media']),
    platform: z.string(),
    icon: z.string(),
    active: z.boolean(),
    orderIndex: z.string(),
  })
  .superRefine(({ name, price, orderIndex }, ctx) => {
    for (const l of LANGUAGES) if (!name[l].trim()) ctx.addIssue({ code: 'custom', path: ['name', l], message: 'required' });
    // Either one left out reads as the contract's default, so a typed value that is not one is refused here.
    const { priceQepik, orderIndex: index } = localServiceInputSchema.shape;
    const qepik = parseAznToQepik(price);
    const position = parseOrderIndex(orderIndex);
    if (qepik === undefined || !priceQepik.safeParse(qepik).success) ctx.addIssue({ code: 'custom', path: ['price'], message: 'priceInvalid' });
    if (position === undefined || !index.safeParse(position).success) ctx.addIssue({ code: 'custom', path: ['orderIndex'], message: 'orderIndexInvalid' });
  })
  .transform(
    (v): z.input<typeof localServiceInputSchema> => ({
      name: v.name,
      description: v.description,
      details: v.details,
      benefits: v.benefits,
      priceQepik: parseAznToQepik(v.price) ?? null,
      category: v.category,
      platform: v.platform.trim() || null,
      icon: v.icon.trim() || null,
      active: v.active,
      orderIndex: parseOrderIndex(v.orderIndex) ?? 0,
    }),
  )
  .pipe(localServiceInputSchema);

type TextKey = 'name' | 'description' | 'details' | 'benefits';
const blankLocalized: Localized = { az: '', tr: '', en: '' };

function ServiceDialog({ service, onClose }: { service: LocalService | null; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const lang = useLanguage();
  const save = useSaveService();
  // The submit button keeps the focus when a field is wrong, as on the other admin forms.
  const form = useForm<z.input<typeof localServiceFormSchema>, unknown, LocalServiceInput>({
    resolver: zodResolver(localServiceFormSchema),
    shouldFocusError: false,
    defaultValues: {
      name: service?.name ?? blankLocalized,
      description: service?.description ?? blankLocalized,
      details: service?.details ?? blankLocalized,
      benefits: service?.benefits ?? blankLocalized,
      price: qepikToInput(service?.priceQepik ?? null),
      category: service?.category ?? 'social_media',
      platform: service?.platform ?? '',
      icon: service?.icon ?? '',
      active: service?.active ?? true,
      orderIndex: String(service?.orderIndex ?? 0),
    },
  });
  const { errors } = form.formState;
  const values = form.watch();
  // The languages that missed the name at the last attempt.
  const missing = LANGUAGES.filter((l) => errors.name?.[l]);
  const fields: LocalizedField<TextKey>[] = [
    { key: 'name', label: t('services.name'), max: 200, required: true },
    { key: 'description', label: t('services.description'), max: 1000, multiline: true, rows: 2 },
    { key: 'details', label: t('services.details'), max: 5000, multiline: true, rows: 4 },
    { key: 'benefits', label: t('services.benefits'), max: 2000, multiline: true, rows: 4 },
  ];

  const send = (input: LocalServiceInput) => {
    save.mutate(
      { id: service?.id, input },
      {
        onSuccess: () => {
          notify.success(service ? t('notices.serviceUpdated') : t('notices.serviceCreated'), input.name[lang]);
          onClose();
        },
        onError: (err) => notifyError(t, 'notices.operationFailed', err),
      },
    );
  };

  return (
    <FormDialog
      title={service ? t('services.editTitle') : t('services.newTitle')}
      onClose={onClose}
      onSubmit={() => void form.handleSubmit(send)()}
      pending={save.isPending}
      className="sm:max-w-3xl"
      formClassName="grid gap-4 sm:grid-cols-2"
      footerClassName="sm:col-span-2"
    >
      <div className="space-y-4 sm:col-span-2">
        <LocalizedFields
          missing={missing}
          values={values}
          onChange={(key: TextKey, l: Language, text: string) => form.setValue(`${key}.${l}`, text, { shouldDirty: true })}
          fields={fields}
        />
        <p className="text-xs text-slate-500">{t('services.benefitsHint')}</p>
      </div>
      <InputField
        label={t('services.priceAzn')}
        error={errors.price ? t('services.priceInvalid') : undefined}
        type="number"
        min={0}
        step={0.01}
        inputMode="decimal"
        {...form.register('price')}
      />
      <Field label={t('services.category')}>
        {(control) => (
          <Select {...control} {...form.register('category')} className="h-[42px]">
            <option value="social_media">{t('services.categories.social_media')}</option>
            <option value="standard">{t('services.categories.standard')}</option>
          </Select>
        )}
      </Field>
      <InputField label={t('services.platform')} {...form.register('platform')} placeholder="instagram" maxLength={50} />
      <InputField label={t('services.icon')} hint={t('services.iconHint')} {...form.register('icon')} placeholder="Heart" maxLength={50} />
      <InputField
        label={t('services.orderIndex')}
        hint={t('services.orderIndexHint')}
        error={errors.orderIndex ? t('services.orderIndexInvalid') : undefined}
        type="number"
        step={1}
        {...form.register('orderIndex')}
      />
      <div className="flex items-end pb-2">
        <Controller control={form.control} name="active" render={({ field }) => <Toggle label={t('services.active')} checked={field.value} onChange={field.onChange} />} />
      </div>
    </FormDialog>
  );
}
