import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from '../../i18n';
import { useNavigate, useSearchParams, type LoaderFunctionArgs } from 'react-router';
import type { PublicService } from '../../../core/contracts/catalog';
import { LOCALES } from '../../../core/i18n';
import { OTHER_PLATFORM, platformDisplayName, type ServiceGroup } from '../../../core/platforms';
import { routeLanguage, type PageAnswer, type PageMeta } from '../../app/page';
import { Spinner } from '../../components/ui/Spinner';
import { LoadFailedPanel } from '../../components/ui/LoadFailedPanel';
import { useLanguage } from '../../lib/language';
import { authDialog, useEnsureMe, useMe } from '../auth';
import { servicesAnswer, useFetchService, useServiceDetail, useServices } from './api';
import { indexCatalog, resolveChoice } from './catalogIndex';
import { dripInput } from './orderForm';
import { PriceSummary } from './PriceSummary';
import { useCustomerFees } from './useCustomerFees';
import { OrderSteps } from './OrderSteps';
import { useOrderForm, type OrderFormOutput } from './useOrderForm';
import { focusField } from '../../lib/focusField';
import { island } from '../../islands/island';

export const ns = ['catalog'];

interface OrderLoaderData {
  platform: string;
  answers: PageAnswer[];
}

/** The platform of the address, for the title; the service list, which the page sends with itself (docs/decisions/0033). */
export async function loader(args: LoaderFunctionArgs): Promise<OrderLoaderData> {
  return {
    platform: (new URL(args.request.url).searchParams.get('platform') ?? '').trim().toLowerCase(),
    answers: await servicesAnswer(args, routeLanguage(args.params, args.request)),
  };
}

export const meta: PageMeta = ({ t, data, site }) => {
  const platform = (data as OrderLoaderData | undefined)?.platform;
  return {
    title: !platform
      ? t('catalog:meta.title', { site: site.site_name })
      : platform === OTHER_PLATFORM
        ? t('catalog:meta.otherTitle', { site: site.site_name })
        : t('catalog:meta.platformTitle', { platform: platformDisplayName(platform), site: site.site_name }),
    description: t('catalog:meta.description'),
  };
};

/** What Buy Now hands to the dashboard's orders tab (also put in the address as #orders). */
export interface OrderNavigationState {
  tab: 'orders';
  serviceId: string;
  platform: string;
  link: string;
  quantity: number;
  params: Record<string, string>;
  /** A drip-feed asked for on the catalogue page. */
  drip?: { runs: number; interval: number };
}

interface Choice {
  platform: string;
  group?: ServiceGroup;
  serviceId?: string;
}

/**
 * The order catalogue (docs/rules.md#orders): platform, type group, service, then link, quantity and the
 * service's extra params, with the price computed by the same rule the server charges by.
 */
export function OrderView() {
  const { t } = useTranslation('catalog');
  const lang = useLanguage();
  const locale = LOCALES[lang];
  const navigate = useNavigate();
  const me = useMe();
  const ensureMe = useEnsureMe();
  const fetchService = useFetchService();
  const [searchParams, setSearchParams] = useSearchParams();
  const requested = (searchParams.get('platform') ?? '').trim().toLowerCase();

  const list = useServices(lang);

  // The signed-in customer's own prices: the list's fees with their discount.

  const fees = useCustomerFees(list.data?.fees);
  const index = useMemo(() => (list.data ? indexCatalog(list.data.services) : null), [list.data]);
  const platform = requested || index?.platforms[0] || '';

  // Choices belong to one platform: another platform (from the header menu, say) starts afresh.
  const [chosen, setChoice] = useState<Choice>({ platform });
  const choice = resolveChoice(index, platform, chosen.platform === platform ? chosen : {});
  const { platformServices, group, service } = choice;

  // The heading names the platform the address names, as the server rendered it before the list
  // came (the page does not shift when it comes); one without services gets the general heading.
  const titled = requested && (!index || platformServices) ? requested : '';

  const [serviceMissing, setServiceMissing] = useState(false);
  const [submitError, setSubmitError] = useState<string>();
  const formRef = useRef<HTMLFormElement>(null);

  const detail = useServiceDetail(service?.id, lang);
  const params = useMemo(() => detail.data?.params ?? [], [detail.data]);
  const order = useOrderForm({ service, params });
  const { draft, setSubmitted, serviceChosen } = order;

  // A service named in the address (`?service=`, from the price list) is chosen once the list is in:
  // its platform and type with it, then the address keeps the platform alone.
  const linkedId = (searchParams.get('service') ?? '').trim();
  const linked = linkedId ? index?.byId.get(linkedId) : undefined;
  useEffect(() => {
    const linkedPlatform = linked?.platform.trim().toLowerCase();
    if (!linked || !linkedPlatform || !index?.byPlatform.has(linkedPlatform)) return;
    setChoice({ platform: linkedPlatform, group: linked.group, serviceId: linked.id });
    serviceChosen(linked);
    setSearchParams(
      (prev) => {
        const out = new URLSearchParams(prev);
        out.set('platform', linkedPlatform);
        out.delete('service');
        return out;
      },
      { replace: true, preventScrollReset: true },
    );
  }, [linked, index, serviceChosen, setSearchParams]);

  const choosePlatform = useCallback(
    (next: string) => {
      setChoice({ platform: next });
      setSubmitted(false);
      setServiceMissing(false);
      setSearchParams(
        (prev) => {
          const out = new URLSearchParams(prev);
          out.set('platform', next);
          return out;
        },
        { replace: true, preventScrollReset: true },
      );
    },
    [setSearchParams, setSubmitted],
  );
  const chooseGroup = useCallback((next: ServiceGroup) => setChoice({ platform, group: next }), [platform]);
  const chooseService = useCallback(
    (next: PublicService | undefined) => {
      // A search hit may be of another type: its type becomes the chosen one.
      setChoice({ platform, group: next?.group ?? group, serviceId: next?.id });
      setServiceMissing(false);
      serviceChosen(next);
    },
    [platform, group, serviceChosen],
  );

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    // A click before the session is known waits for it rather than treating the visitor as a guest.
    const user = me.data !== undefined ? me.data : await ensureMe().catch(() => null);
    if (!user) {
      authDialog.open('login');
      return;
    }
    setSubmitted(true);
    if (!service) {
      setServiceMissing(true);
      focusField(formRef.current?.querySelector<HTMLElement>('#order-service'));
      return;
    }
    // The required params are known once the detail is in; wait for it rather than skip them.
    const fields =
      service.hasParams && !detail.data
        ? await fetchService(service.id, lang)
            .then((d) => d.params)
            .catch(() => null)
        : params;
    if (!fields) {
      setSubmitError(t('errors.detailFailed'));
      return;
    }
    setSubmitError(undefined);
    await order.submit(
      (input: OrderFormOutput) => {
        const state: OrderNavigationState = { tab: 'orders', serviceId: input.serviceId, platform, link: input.link, quantity: input.quantity, params: input.params };
        if (input.runs !== undefined && input.interval !== undefined) state.drip = { runs: input.runs, interval: input.interval };
        navigate(`/${lang}/dashboard#orders`, { state });
      },
      (field) => focusField(formRef.current?.querySelector<HTMLElement>(`[data-field="${field}"]`)),
      fields,
    );
  }

  return (
    <main id="main" className="flex-1 bg-slate-50">
      <section className="relative isolate overflow-hidden bg-gradient-to-br from-brand-600 via-brand-500 to-violet-600 text-white">
        <div aria-hidden="true" className="absolute -right-20 -top-28 -z-10 size-80 rounded-full bg-white/10 blur-3xl" />
        <div className="mx-auto max-w-7xl px-4 pb-20 pt-10 sm:px-6 sm:pt-14 lg:px-8">
          <p className="text-sm font-semibold uppercase tracking-wider text-brand-100">{t('hero.eyebrow')}</p>
          <h1 className="mt-2 text-3xl font-extrabold tracking-tight text-balance sm:text-4xl">
            {titled ? (titled === OTHER_PLATFORM ? t('hero.otherTitle') : t('hero.platformTitle', { platform: platformDisplayName(titled) })) : t('hero.title')}
          </h1>
          <p className="mt-3 max-w-2xl text-base leading-relaxed text-brand-50/90 sm:text-lg">{t('hero.subtitle')}</p>
        </div>
      </section>

      <div className="relative mx-auto -mt-12 max-w-7xl px-4 pb-20 sm:px-6 lg:px-8">
        {list.isPending ? (
          // As tall as the screen, so the form that replaces it does not push the footer into view.
          <div className="grid min-h-[100svh] content-start justify-items-center rounded-2xl border border-slate-200 bg-white pt-24 shadow-sm">
            <Spinner label={t('load.loading')} className="size-10" />
          </div>
        ) : !index ? (
          <LoadFailedPanel level="h2" title={t('load.failed')} text={t('load.failedText')} retryLabel={t('load.retry')} retrying={list.isFetching} onRetry={() => void list.refetch()} />
        ) : (
          <form ref={formRef} noValidate onSubmit={(e) => void onSubmit(e)} className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
            <div className="min-w-0 space-y-6">
              <OrderSteps
                platforms={index.platforms}
                choice={choice}
                detail={detail}
                fees={fees!}
                locale={locale}
                onPlatform={choosePlatform}
                onGroup={chooseGroup}
                onService={chooseService}
                serviceError={serviceMissing ? t('errors.serviceRequired') : undefined}
                params={params}
                form={order}
              />
            </div>

            <PriceSummary
              service={service}
              fees={fees!}
              quantity={draft.quantity}
              quantityValid={Boolean(service) && !order.byField.has('quantity')}
              runs={(() => {
                const drip = dripInput(service, draft);
                return drip && !('invalid' in drip) ? drip.runs : drip ? Number.NaN : 1;
              })()}
              locale={locale}
              signedIn={Boolean(me.data)}
              error={submitError}
            />
          </form>
        )}
      </div>
    </main>
  );
}

// The whole page is one island (docs/decisions/0028-the-order-page-as-an-island.md): its list loads
// in the browser, so it wakes when the page has loaded, without the app's router or query cache.
const OrderIsland = island('Order', OrderView);

export default function OrderPage() {
  return <OrderIsland />;
}

export const islands = true;
/** What its island reads besides `common`. */
export const islandNs = ['catalog'];
