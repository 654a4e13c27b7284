import type { ComponentProps } from 'react';
import { useTranslation } from '../../i18n';
import type { PublicService, ServiceList } from '../../../core/contracts/catalog';
import { platformDisplayName, type ServiceGroup } from '../../../core/platforms';
import type { ServiceChoice } from './catalogIndex';
import { GroupPicker, PlatformPicker } from './Pickers';
import { ServiceInfo } from './ServiceInfo';
import { ServicePicker } from './ServicePicker';
import { StepHeading } from './StepHeading';

/**
 * Steps 1 and 2 of an order form (docs/rules.md#orders): the platform, then the type group and the
 * service with what is known of it. The catalogue page and the dashboard's orders tab both show them.
 */
export function ServiceSteps({
  platforms,
  choice: { platform, platformServices, groups, group, groupServices, service },
  detail,
  fees,
  locale,
  onPlatform,
  onGroup,
  onService,
  serviceError,
}: {
  platforms: string[];
  choice: ServiceChoice;
  detail: ComponentProps<typeof ServiceInfo>['detail'];
  fees: ServiceList['fees'];
  locale: string;
  onPlatform: (platform: string) => void;
  onGroup: (group: ServiceGroup) => void;
  onService: (service: PublicService | undefined) => void;
  /** Why no service is chosen, once the form was sent without one. */
  serviceError?: string;
}) {
  const { t } = useTranslation('catalog');
  return (
    <>
      <section aria-labelledby="step-platform" className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6">
        <StepHeading id="step-platform" step={1} title={t('steps.platform')} />
        <PlatformPicker platforms={platforms} value={platform} onChange={onPlatform} />
      </section>

      <section aria-labelledby="step-service" className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6">
        <StepHeading id="step-service" step={2} title={t('steps.service')} />
        {!platformServices ? (
          <p className="rounded-xl border border-dashed border-slate-300 px-4 py-8 text-center text-sm text-slate-600">
            {t('emptyPlatform', { platform: platformDisplayName(platform) })}
          </p>
        ) : (
          <div className="space-y-5">
            <GroupPicker groups={groups} value={group} platformServices={platformServices} onChange={onGroup} />
            <ServicePicker
              key={`${platform}/${group}`}
              platform={platform}
              services={groupServices}
              platformServices={platformServices}
              selected={service}
              onChange={onService}
              locale={locale}
              error={serviceError}
            />
            <ServiceInfo service={service} detail={detail} fees={fees} locale={locale} />
          </div>
        )}
      </section>
    </>
  );
}
