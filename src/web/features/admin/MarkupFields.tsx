import { markupSchema, type Markup } from '../../../core/catalog';
import { useTranslation } from '../../i18n';
import { InputField } from './ui';

/** A markup as typed: the percent and the fixed USD per 1000, both text until they parse. */
export interface MarkupDraft {
  percent: string;
  fixedPer1000: string;
}

export const NO_MARKUP: MarkupDraft = { percent: '0', fixedPer1000: '0' };

/** The markup the contract accepts (core/catalog.ts `markupSchema`), or null while it does not. */
export function parseMarkup(draft: MarkupDraft): Markup | null {
  const parsed = markupSchema.safeParse({ percent: draft.percent || '0', fixedPer1000: draft.fixedPer1000 || '0' });
  return parsed.success ? parsed.data : null;
}

/** The two fields of a markup on a provider's price, side by side from small screens up. */
export function MarkupFields({ value, onChange }: { value: MarkupDraft; onChange: (next: MarkupDraft) => void }) {
  const { t } = useTranslation('admin');
  const percentBad = parseMarkup({ ...value, fixedPer1000: '0' }) === null;
  const fixedBad = parseMarkup({ ...value, percent: '0' }) === null;
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <InputField
        label={t('catalogue.markupPercent')}
        hint={t('catalogue.markupPercentHint')}
        error={percentBad ? t('catalogue.markupInvalid') : undefined}
        inputMode="decimal"
        autoComplete="off"
        value={value.percent}
        onChange={(e) => onChange({ ...value, percent: e.target.value })}
      />
      <InputField
        label={t('catalogue.markupFixed')}
        hint={t('catalogue.markupFixedHint')}
        error={fixedBad ? t('catalogue.markupInvalid') : undefined}
        inputMode="decimal"
        autoComplete="off"
        value={value.fixedPer1000}
        onChange={(e) => onChange({ ...value, fixedPer1000: e.target.value })}
      />
    </div>
  );
}
