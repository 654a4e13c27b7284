import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { useTranslation } from '../../i18n';
import { paramTextOverrideInputSchema } from '../../../core/contracts/admin';
import { LANGUAGES, type Language } from '../../../core/i18n';
import { PARAM_KINDS, PARAM_TEXT_FIELDS, PARAM_TEXTS, type ParamKind, type ParamTextField, type ParamTextOverride } from '../../../core/paramTexts';
import { Button } from '../../components/ui/Button';
import { Input, Textarea } from '../../components/ui/Input';
import { useParamTexts, useSaveParamTexts } from './api';
import { FormAlert, FormDialog } from './dialogs';
import { notify } from './format';
import { Field, NewButton, Panel, QueryView, Select, Table, td, Th, useFailureNotice } from './ui';

type Texts = Record<ParamTextField, string>;
const BLANK: Texts = { label: '', hint: '', placeholder: '', required: '', invalid: '' };
const MAX: Record<ParamTextField, number> = { label: 100, hint: 500, placeholder: 500, required: 200, invalid: 200 };

const isKnown = (kind: string): kind is ParamKind => (PARAM_KINDS as readonly string[]).includes(kind);
const defaults = (kind: string, lang: Language): Texts => (isKnown(kind) ? PARAM_TEXTS[kind][lang] : BLANK);

/**
 * The order form's texts of provider params, per kind and language: the storefront's own
 * wording of the known kinds, which an admin may override text by text, and overrides of
 * params of other kinds by their field name.
 */
export function ParamTextsTab() {
  const { t } = useTranslation('admin');
  const overrides = useParamTexts();
  const [lang, setLang] = useState<Language>('az');
  const [editing, setEditing] = useState<{ kind: string } | 'new' | null>(null);

  useFailureNotice(overrides, 'notices.paramTextsNotLoaded');

  const byKind = useMemo(() => {
    const out = new Map<string, ParamTextOverride>();
    for (const o of overrides.data ?? []) if (o.lang === lang) out.set(o.kind, o);
    return out;
  }, [overrides.data, lang]);
  const kinds = useMemo(() => [...PARAM_KINDS, ...[...byKind.keys()].filter((k) => !isKnown(k)).sort()], [byKind]);

  return (
    <Panel>
      <div className="flex flex-wrap items-end justify-between gap-3 border-b border-slate-200 p-4">
        <p className="max-w-2xl text-sm text-slate-600">{t('paramTexts.lead')}</p>
        <div className="flex flex-wrap items-end gap-3">
          <Field label={t('paramTexts.language')} className="w-40">
            {(control) => (
              <Select {...control} value={lang} onChange={(e) => setLang(e.target.value as Language)}>
                {LANGUAGES.map((l) => (
                  <option key={l} value={l}>
                    {t(`content.lang.${l}`)}
                  </option>
                ))}
              </Select>
            )}
          </Field>
          <NewButton onClick={() => setEditing('new')}>{t('paramTexts.new')}</NewButton>
        </div>
      </div>
      <QueryView query={overrides} error={t('notices.paramTextsNotLoaded')} empty="" isEmpty={() => false}>
        {() => (
          <Table
            label={t('services.tabs.params')}
            minWidth="min-w-[760px]"
            head={
              <>
                <Th>{t('paramTexts.kind')}</Th>
                <Th>{t('paramTexts.label')}</Th>
                <Th>{t('paramTexts.hint')}</Th>
                <Th>{t('paramTexts.source')}</Th>
                <Th className="text-right">{t('common.actions')}</Th>
              </>
            }
          >
            {kinds.map((kind) => {
              const own = defaults(kind, lang);
              const o = byKind.get(kind);
              return (
                <tr key={kind} data-testid="param-text-row" data-kind={kind}>
                  <td className={`${td} font-mono text-xs text-slate-900`}>{kind}</td>
                  <td className={`${td} font-medium text-slate-900`} lang={lang}>
                    {o?.label ?? (own.label || '—')}
                  </td>
                  <td className={`${td} max-w-sm truncate`} lang={lang}>
                    {o?.hint ?? (own.hint || '—')}
                  </td>
                  <td className={td}>
                    <span className={o ? 'rounded-full bg-brand-50 px-2 py-0.5 text-xs font-semibold text-brand-700' : 'text-xs text-slate-500'}>
                      {o ? t('paramTexts.custom') : isKnown(kind) ? t('paramTexts.default') : t('paramTexts.provider')}
                    </span>
                  </td>
                  <td className={`${td} text-right`}>
                    <Button size="sm" variant="outline" onClick={() => setEditing({ kind })} aria-label={t('common.editItem', { name: kind })}>
                      {t('paramTexts.edit')}
                    </Button>
                  </td>
                </tr>
              );
            })}
          </Table>
        )}
      </QueryView>
      {editing ? (
        <ParamTextsDialog
          kind={editing === 'new' ? null : editing.kind}
          lang={lang}
          current={editing === 'new' ? undefined : byKind.get(editing.kind)}
          onClose={() => setEditing(null)}
        />
      ) : null}
    </Panel>
  );
}

/**
 * The param texts form: the kind as typed, trimmed and lower-cased and held to the contract's
 * pattern (its error message is `kind`), and the five texts as typed, which the server trims.
 */
export const paramTextsFormSchema = z.object({
  kind: z
    .string()
    .transform((kind) => kind.trim().toLowerCase())
    .refine((kind) => paramTextOverrideInputSchema.shape.kind.safeParse(kind).success, 'kind'),
  label: z.string(),
  hint: z.string(),
  placeholder: z.string(),
  required: z.string(),
  invalid: z.string(),
}) satisfies z.ZodType<Record<ParamTextField, string> & { kind: string }>;

function ParamTextsDialog({ kind, lang, current, onClose }: { kind: string | null; lang: Language; current: ParamTextOverride | undefined; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const save = useSaveParamTexts();
  // The submit button keeps the focus when the kind is wrong, as on the other admin forms.
  const form = useForm<z.input<typeof paramTextsFormSchema>, unknown, z.output<typeof paramTextsFormSchema>>({
    resolver: zodResolver(paramTextsFormSchema),
    shouldFocusError: false,
    defaultValues: { kind: kind ?? '', ...Object.fromEntries(PARAM_TEXT_FIELDS.map((f) => [f, current?.[f] ?? ''])) },
  });
  const { errors } = form.formState;
  const own = defaults(kind ?? form.watch('kind').trim(), lang);

  const send = (input: z.output<typeof paramTextsFormSchema>) => {
    save.mutate(
      { ...input, lang },
      {
        onSuccess: () => {
          notify.success(t('notices.paramTextsSaved'), `${input.kind} · ${t(`content.lang.${lang}`)}`);
          onClose();
        },
        onError: () => {
          form.setError('root', { message: t('notices.operationFailed') });
          notify.error(t('notices.operationFailed'));
        },
      },
    );
  };

  return (
    <FormDialog
      title={t('paramTexts.editTitle', { kind: kind ?? t('paramTexts.newKind'), lang: t(`content.lang.${lang}`) })}
      description={t('paramTexts.editLead')}
      onClose={onClose}
      onSubmit={() => void form.handleSubmit(send)()}
      pending={save.isPending}
      formClassName="space-y-4"
    >
      {kind === null ? (
        <Field label={t('paramTexts.kind')} hint={t('paramTexts.kindHint')}>
          {(control) => <Input {...control} {...form.register('kind')} maxLength={64} required spellCheck={false} />}
        </Field>
      ) : null}
      {PARAM_TEXT_FIELDS.map((f) => (
        <Field key={f} label={t(`paramTexts.${f}`)}>
          {(control) =>
            f === 'hint' || f === 'placeholder' ? (
              <Textarea {...control} lang={lang} rows={2} placeholder={own[f]} maxLength={MAX[f]} {...form.register(f)} />
            ) : (
              <Input {...control} lang={lang} placeholder={own[f]} maxLength={MAX[f]} {...form.register(f)} />
            )
          }
        </Field>
      ))}
      <FormAlert>{errors.kind ? t('paramTexts.kindInvalid') : errors.root?.message}</FormAlert>
      {current ? (
        <Button variant="outline" size="sm" onClick={() => void form.handleSubmit((input) => send({ ...input, ...BLANK }))()} disabled={save.isPending}>
          {t('paramTexts.reset')}
        </Button>
      ) : null}
    </FormDialog>
  );
}
