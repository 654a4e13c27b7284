import { useState } from 'react';
import { useTranslation } from '../../i18n';
import { LANGUAGES, type Language } from '../../../core/i18n';
import { Input, Textarea } from '../../components/ui/Input';
import type { Localized } from './api';
import { Field, TabPanel, Tabs } from './ui';

export interface LocalizedField {
  key: string;
  label: string;
  multiline?: boolean;
  rows?: number;
  max: number;
  required?: boolean;
}

/** Text in az, tr and en on three tabs; a tab with a missing required field is marked. */
export function LocalizedFields({
  fields,
  values,
  onChange,
  missing,
}: {
  fields: LocalizedField[];
  values: Record<string, Localized>;
  onChange: (key: string, lang: Language, value: string) => void;
  /** Languages whose required fields are empty, after a submit attempt. */
  missing: Language[];
}) {
  const { t } = useTranslation('admin');
  const [lang, setLang] = useState<Language>(missing[0] ?? 'az');
  return (
    <Tabs
      value={lang}
      onValueChange={(v) => setLang(v as Language)}
      label={t('content.languages')}
      items={LANGUAGES.map((l) => ({
        value: l,
        label: (
          <span className="inline-flex items-center gap-1.5">
            {t(`content.lang.${l}`)}
            {missing.includes(l) ? <span className="size-2 rounded-full bg-rose-500" aria-label={t('content.missing')} role="img" /> : null}
          </span>
        ),
      }))}
    >
      {LANGUAGES.map((l) => (
        <TabPanel key={l} value={l} className="space-y-4">
          {fields.map((f) => {
            const value = values[f.key]?.[l] ?? '';
            const invalid = missing.includes(l) && f.required && !value.trim();
            return (
              <Field key={f.key} label={`${f.label} (${l.toUpperCase()})`} error={invalid ? t('content.required') : undefined}>
                {({ id, describedBy }) =>
                  f.multiline ? (
                    <Textarea id={id} lang={l} rows={f.rows ?? 4} value={value} maxLength={f.max} onChange={(e) => onChange(f.key, l, e.target.value)} aria-describedby={describedBy} aria-invalid={invalid || undefined} />
                  ) : (
                    <Input id={id} lang={l} value={value} maxLength={f.max} onChange={(e) => onChange(f.key, l, e.target.value)} aria-describedby={describedBy} aria-invalid={invalid || undefined} />
                  )
                }
              </Field>
            );
          })}
        </TabPanel>
      ))}
    </Tabs>
  );
}

export const emptyLocalized = (): Localized => ({ az: '', tr: '', en: '' });

/** Languages in which one of the given required texts is blank. */
export function missingLanguages(values: Localized[]): Language[] {
  return LANGUAGES.filter((l) => values.some((v) => !v[l].trim()));
}

export const trimLocalized = (v: Localized): Localized => ({ az: v.az.trim(), tr: v.tr.trim(), en: v.en.trim() });
