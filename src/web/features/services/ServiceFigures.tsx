import { useTranslation } from '../../i18n';

const FIGURES = ['rating', 'clients', 'projects', 'years'] as const;

/** The fixed satisfaction figures of the services and detail pages (docs/rules.md#screens). */
export function ServiceFigures({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation('services');
  return (
    <dl className={compact ? 'grid grid-cols-2 gap-3' : 'grid grid-cols-2 gap-6 md:grid-cols-4'}>
      {FIGURES.map((key) => (
        <div
          key={key}
          className={compact ? 'flex flex-col-reverse rounded-xl bg-slate-50 p-3 text-center' : 'flex flex-col-reverse text-center'}
        >
          <dt className={compact ? 'text-xs text-slate-600' : 'mt-1 text-sm font-medium text-slate-600'}>{t(`figures.${key}.label`)}</dt>
          <dd className={compact ? 'text-xl font-extrabold text-brand-600' : 'text-4xl font-extrabold tracking-tight text-brand-600'}>
            {t(`figures.${key}.value`)}
          </dd>
        </div>
      ))}
    </dl>
  );
}
