import { Info } from 'lucide-react';
import { lazy, Suspense, useEffect } from 'react';
import { useTranslation } from '../../i18n';
import type { LocalizedParam, PublicService } from '../../../core/contracts/catalog';
import type { Fees } from '../../../core/pricing';
import type { ServiceGroup } from '../../../core/platforms';
import { platformName } from '../../lib/platformName';
import type { ServiceChoice } from './catalogIndex';
import { OrderDetails } from './OrderDetails';
import { GroupPicker, PlatformPicker } from './Pickers';
import type { ServiceDetailState } from './ServiceInfo';
import { ServicePicker } from './ServicePicker';
import { StepHeading } from './StepHeading';
import type { useOrderForm } from './useOrderForm';
import { whenIdle } from '../../lib/idle';

// What is known of the chosen service loads with the first choice (fetched when the browser is
// first idle): a form with none chosen yet shows only the hint (docs/decisions/0032).
const serviceInfoCode = () => import('./ServiceInfo');
const ServiceInfo = lazy(() => serviceInfoCode().then((m) => ({ default: m.ServiceInfo })));

function ChooseHint() {
  const { t } = useTranslation('catalog');
  useEffect(() => whenIdle(() => void serviceInfoCode().catch(() => {})), []);
  return (
    <p className="flex items-center gap-3 rounded-xl bg-slate-50 px-4 py-4 text-sm text-slate-600 ring-1 ring-inset ring-slate-200">
      <Info className="size-5 shrink-0 text-brand-500" aria-hidden="true" />
      {t('info.choose')}
    </p>
  );
}

/**
 * The steps of an order form (docs/rules.md#orders): the platform, then the type group and the service
 * with what is known of it, then the order's details. The catalogue page and the dashboard's orders
 * tab both show them.
 */
export function OrderSteps({
  platforms,
  choice: { platform, platformServices, groups, group, groupServices, service },
  detail,
  params,
  form,
  fees,
  locale,
  onPlatform,
  onGroup,
  onService,
  serviceError,
}: {
  platforms: string[];
  choice: ServiceChoice;
  detail: ServiceDetailState;
  /** The chosen service's params, in the page's language. */
  params: readonly LocalizedParam[];
  form: Pick<ReturnType<typeof useOrderForm>, 'draft' | 'setDraft' | 'touch' | 'visibleIssues'>;
  fees: Fees;
  locale: string;
  onPlatform: (platform: string) => void;
  onGroup: (group: ServiceGroup) => void;
  onService: (service: PublicService | undefined) => void;
  /** Why no service is chosen, once the form was sent without one. */
  serviceError?: string;
}) {
  const { t } = useTranslation('catalog');
  useEffect(() => whenIdle(() => void serviceInfoCode().catch(() => {})), []);
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
            {t('emptyPlatform', { platform: platformName(t, platform) })}
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
              fees={fees}
            />
            {service ? (
              <Suspense fallback={<ChooseHint />}>
                <ServiceInfo service={service} detail={detail} fees={fees} locale={locale} />
              </Suspense>
            ) : (
              <ChooseHint />
            )}
          </div>
        )}
      </section>

      <OrderDetails
        platform={platform}
        service={service}
        params={params}
        paramsLoading={detail.isPending}
        draft={form.draft}
        onDraft={form.setDraft}
        onTouch={form.touch}
        issues={form.visibleIssues}
        locale={locale}
      />
    </>
  );
}
