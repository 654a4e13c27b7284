import { useId, useState } from 'react';
import { useTranslation } from '../../i18n';
import { LANGUAGES, type Language } from '../../../core/i18n';
import { Input, Textarea } from '../../components/ui/Input';
import type { Localized } from './api';
import { FormAlert } from './dialogs';
import { TabList, TabPanel } from '../../components/ui/Tabs';
import { Field } from './ui';

export interface LocalizedField<K extends string> {
  key: K;
  label: string;
  multiline?: boolean;
  rows?: number;
  max: number;
  required?: boolean;
}

interface LocalizedFieldsProps<K extends string> {
  fields: LocalizedField<K>[];
  values: Record<K, Localized>;
  onChange: (key: K, lang: Language, value: string) => void;
  /** Languages whose required fields are empty, after a submit attempt. */
  missing: Language[];
}

/**
 * Text in az, tr and en on three tabs, and below them which languages miss a required text after
 * a submit attempt; a tab with a missing required field is marked.
 */
export function LocalizedFields<K extends string>({ fields, values, onChange, missing }: LocalizedFieldsProps<K>) {
  const { t } = useTranslation('admin');
  return (
    <>
      {/* A new set of missing languages opens the first of them. */}
      <LanguageTabs key={missing.join(',')} fields={fields} values={values} onChange={onChange} missing={missing} />
      <FormAlert>{missing.length ? t('content.missingIn', { langs: missing.map((l) => t(`content.lang.${l}`)).join(', ') }) : null}</FormAlert>
    </>
  );
}

function LanguageTabs<K extends string>({ fields, values, onChange, missing }: LocalizedFieldsProps<K>) {
  const { t } = useTranslation('admin');
  const [lang, setLang] = useState<Language>(missing[0] ?? 'az');
  const idPrefix = useId();
  return (
    <>
      <TabList
        value={lang}
        onChange={setLang}
        label={t('content.languages')}
        idPrefix={idPrefix}
        look="pill"
        items={LANGUAGES.map((l) => ({
          id: l,
          label: (
            <span className="inline-flex items-center gap-1.5">
              {t(`content.lang.${l}`)}
              {missing.includes(l) ? <span className="size-2 rounded-full bg-rose-500" aria-label={t('content.missing')} role="img" /> : null}
            </span>
          ),
        }))}
      />
      <TabPanel id={lang} idPrefix={idPrefix} active className="space-y-4">
        {fields.map((f) => {
          const l = lang;
          const value = values[f.key][l];
          const invalid = missing.includes(l) && f.required && !value.trim();
          return (
            <Field key={`${f.key}-${l}`} label={`${f.label} (${l.toUpperCase()})`} error={invalid ? t('content.required') : undefined}>
              {(control) =>
                f.multiline ? (
                  <Textarea {...control} lang={l} rows={f.rows ?? 4} value={value} maxLength={f.max} onChange={(e) => onChange(f.key, l, e.target.value)} />
                ) : (
                  <Input {...control} lang={l} value={value} maxLength={f.max} onChange={(e) => onChange(f.key, l, e.target.value)} />
                )
              }
            </Field>
          );
        })}
      </TabPanel>
    </>
  );
}
