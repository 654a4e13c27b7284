import { memo } from 'react';
import { useTranslation } from '../../i18n';
import type { ServiceGroup } from '../../../core/platforms';
import { platformName } from '../../lib/platformName';
import { cn } from '../../components/ui/cn';
import { PlatformIcon } from '../../components/PlatformIcon';
import type { PlatformServices } from './catalogIndex';

const chip =
  'inline-flex min-h-10 items-center gap-2 rounded-xl border px-3 py-1.5 text-sm sm:min-h-11 sm:px-3.5 sm:py-2 font-semibold transition-colors focus-visible:outline-2 focus-visible:outline-offset-2';
const chipState = (active: boolean) =>
  active
    ? 'border-brand-600 bg-brand-600 text-white shadow-sm'
    : 'border-slate-200 bg-white text-slate-700 hover:border-brand-300 hover:bg-brand-50 hover:text-brand-700';

/** The platforms as toggle buttons; the pressed one is the address's `platform`. */
export const PlatformPicker = memo(function PlatformPicker({
  platforms,
  value,
  onChange,
}: {
  platforms: readonly string[];
  value: string;
  onChange: (platform: string) => void;
}) {
  const { t } = useTranslation('catalog');
  return (
    <div role="group" aria-label={t('steps.platform')} className="flex flex-wrap gap-2">
      {platforms.map((p) => (
        <button
          key={p}
          type="button"
          aria-pressed={p === value}
          data-platform-option={p}
          onClick={() => onChange(p)}
          className={cn(chip, chipState(p === value))}
        >
          <PlatformIcon platform={p} className="size-4" />
          {platformName(t, p)}
        </button>
      ))}
    </div>
  );
});

/** The type groups that have services on this platform, each with its count. */
export const GroupPicker = memo(function GroupPicker({
  groups,
  value,
  platformServices,
  onChange,
}: {
  groups: readonly ServiceGroup[];
  value: ServiceGroup | undefined;
  platformServices: PlatformServices;
  onChange: (group: ServiceGroup) => void;
}) {
  const { t } = useTranslation('catalog');
  return (
    <div>
      <p id="order-group-label" className="mb-2 text-sm font-medium text-slate-800">
        {t('groups.label')}
      </p>
      <div role="group" aria-labelledby="order-group-label" className="flex flex-wrap gap-2">
        {groups.map((g) => (
          <button key={g} type="button" aria-pressed={g === value} onClick={() => onChange(g)} className={cn(chip, chipState(g === value))}>
            {t(`groups.${g}`)}
            <span
              className={cn(
                'rounded-full px-1.5 text-xs font-bold tabular-nums',
                g === value ? 'bg-white text-brand-700' : 'bg-slate-100 text-slate-600',
              )}
            >
              <span className="sr-only">(</span>
              {platformServices.byGroup.get(g)?.length ?? 0}
              <span className="sr-only">)</span>
            </span>
          </button>
        ))}
      </div>
    </div>
  );
});
