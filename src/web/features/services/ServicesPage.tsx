import { ArrowRight, BarChart3, Check, Clock, HandCoins, Heart, Music2, PlaySquare, Share2, Sparkles, Trophy, Users } from 'lucide-react';
import { useTranslation } from '../../i18n';
import { Link, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import type { PageMeta } from '../../app/page';
import { Badge } from '../../components/ui/Badge';
import { ButtonLink, buttonClass } from '../../components/ui/Button';
import { PageHero } from '../../components/ui/PageHero';
import { SectionHeading } from '../../components/ui/SectionHeading';
import { useLanguage } from '../../lib/language';
import { fetchLocalServices, startPrice, type LocalService } from './api';
import { serviceGradient, serviceIcon } from './serviceIcons';
import { ServiceFigures } from './ServiceFigures';
import { ConsultButtonIsland } from './ConsultButton';

export const ns = ['services'];
export const meta: PageMeta = ({ t, site }) => ({ title: t('services:meta.title', { site: site.site_name }), description: t('services:meta.description') });

interface ServicesData {
  /** Null when the list could not be loaded. */
  services: LocalService[] | null;
}

/** The agency's active services, in listing order, in the page's language. */
export async function loader(args: LoaderFunctionArgs): Promise<ServicesData> {
  return { services: await fetchLocalServices(args) };
}

const BENEFITS = [
  { key: 'results', icon: BarChart3 },
  { key: 'team', icon: Trophy },
  { key: 'support', icon: Clock },
  { key: 'pricing', icon: HandCoins },
] as const;

/**
 * The fixed groups of the additional services: the catalogue's engagement services and three
 * platforms. The agency's own social-media services are listed before them.
 */
const ADDITIONAL = [
  { key: 'engagement', icon: Share2, gradient: 'from-brand-500 to-violet-600', orderPlatform: null },
  { key: 'instagram', icon: Heart, gradient: 'from-pink-500 to-rose-500', orderPlatform: 'instagram' },
  { key: 'tiktok', icon: Music2, gradient: 'from-slate-800 to-slate-950', orderPlatform: 'tiktok' },
  { key: 'youtube', icon: PlaySquare, gradient: 'from-red-500 to-red-700', orderPlatform: 'youtube' },
] as const;

export default function ServicesPage() {
  const { t } = useTranslation('services');
  const lang = useLanguage();
  const { services } = useLoaderData<ServicesData>();
  const main = (services ?? []).filter((s) => s.category === 'standard');
  const social = (services ?? []).filter((s) => s.category === 'social_media');

  return (
    <main id="main">
      <PageHero
        title={t('hero.title')}
        subtitle={t('hero.subtitle')}
        eyebrow={
          <span className="inline-flex items-center gap-2 rounded-full bg-white/15 px-3 py-1 text-sm font-medium ring-1 ring-white/25">
            <Sparkles className="size-4" aria-hidden="true" />
            {t('hero.badge')}
          </span>
        }
      >
        <div className="mt-8 flex flex-col gap-3 sm:flex-row">
          <a href="#main-services" className={buttonClass('white', 'lg')}>
            {t('hero.cta')}
          </a>
          <ConsultButtonIsland
            variant="ghost"
            size="lg"
            className="border border-white/40 bg-white/10 text-white hover:bg-white/20"
            hint={t('consult.general')}
            label={t('consult.button')}
            withIcon
          />
        </div>
      </PageHero>

      <section aria-labelledby="benefits-heading" className="py-20 sm:py-24">
        <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
          <SectionHeading id="benefits-heading" title={t('benefits.title')} subtitle={t('benefits.subtitle')} />
          <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
            {BENEFITS.map(({ key, icon: Icon }) => (
              <li key={key} className="rounded-2xl border border-slate-200 bg-white p-6 text-center shadow-sm">
                <span className="mx-auto grid size-14 place-items-center rounded-2xl bg-brand-50 text-brand-600">
                  <Icon className="size-7" aria-hidden="true" />
                </span>
                <h3 className="mt-5 text-lg font-bold text-slate-900">{t(`benefits.items.${key}.title`)}</h3>
                <p className="mt-2 text-sm leading-relaxed text-slate-600">{t(`benefits.items.${key}.text`)}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section id="main-services" aria-labelledby="main-services-heading" className="scroll-mt-20 bg-slate-50 py-20 sm:py-24">
        <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
          <SectionHeading id="main-services-heading" title={t('main.title')} subtitle={t('main.subtitle')} />
          {main.length === 0 ? <p className="mt-12 text-center text-slate-600">{services ? t('main.empty') : t('main.notLoaded')}</p> : null}
          <ul className="mt-12 grid gap-6 empty:hidden md:grid-cols-2 xl:grid-cols-4">
            {main.map((service, i) => (
              <ServiceCard key={service.id} service={service} gradient={serviceGradient(i)} />
            ))}
          </ul>
        </div>
      </section>

      <section aria-labelledby="additional-heading" className="py-20 sm:py-24">
        <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
          <SectionHeading id="additional-heading" title={t('additional.title')} subtitle={t('additional.subtitle')} />
          {social.length ? (
            <ul className="mt-12 grid gap-6 md:grid-cols-2 xl:grid-cols-4" aria-label={t('additional.fromList')}>
              {social.map((service, i) => (
                <ServiceCard key={service.id} service={service} gradient={serviceGradient(i + main.length)} />
              ))}
            </ul>
          ) : null}
          <ul className={`${social.length ? 'mt-6' : 'mt-12'} grid gap-6 md:grid-cols-2`}>
            {ADDITIONAL.map(({ key, icon: Icon, gradient, orderPlatform }) => {
              const name = t(`additional.groups.${key}.name`);
              const features = t(`additional.groups.${key}.features`, { returnObjects: true }) as string[];
              return (
                <li key={key} className="flex flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
                  <div className="flex items-center gap-4">
                    <span className={`grid size-12 shrink-0 place-items-center rounded-xl bg-gradient-to-br text-white ${gradient}`}>
                      <Icon className="size-6" aria-hidden="true" />
                    </span>
                    <h3 className="text-xl font-bold text-slate-900">{name}</h3>
                  </div>
                  <p className="mt-4 text-sm leading-relaxed text-slate-600">{t(`additional.groups.${key}.text`)}</p>
                  <ul className="mt-5 grid flex-1 gap-2 sm:grid-cols-2">
                    {features.map((f) => (
                      <li key={f} className="flex items-start gap-2 text-sm text-slate-700">
                        <Check className="mt-0.5 size-4 shrink-0 text-emerald-600" aria-hidden="true" />
                        {f}
                      </li>
                    ))}
                  </ul>
                  <div className="mt-6 flex flex-wrap gap-2">
                    <ConsultButtonIsland size="sm" hint={name} label={t('consult.button')} />
                    <ButtonLink
                      size="sm"
                      variant="outline"
                      to={orderPlatform ? `/${lang}/order?platform=${orderPlatform}` : `/${lang}/order`}
                      aria-label={t('orderOf', { name })}
                    >
                      {t('order')}
                      <ArrowRight className="size-4" aria-hidden="true" />
                    </ButtonLink>
                  </div>
                </li>
              );
            })}
          </ul>
        </div>
      </section>

      <section aria-labelledby="figures-heading" className="border-y border-slate-200 bg-slate-50 py-16">
        <div className="mx-auto max-w-5xl px-4 sm:px-6 lg:px-8">
          <h2 id="figures-heading" className="sr-only">
            {t('figures.heading')}
          </h2>
          <ServiceFigures />
        </div>
      </section>

      <section aria-labelledby="cta-heading" className="py-20 sm:py-24">
        <div className="mx-auto max-w-5xl px-4 sm:px-6 lg:px-8">
          <div className="relative isolate overflow-hidden rounded-3xl bg-gradient-to-br from-brand-600 to-violet-600 px-6 py-14 text-center text-white shadow-xl sm:px-12">
            <Users aria-hidden="true" className="absolute -right-6 -top-6 -z-10 size-40 text-white/10" />
            <h2 id="cta-heading" className="text-3xl font-extrabold tracking-tight text-balance sm:text-4xl">
              {t('cta.title')}
            </h2>
            <p className="mx-auto mt-4 max-w-2xl text-lg text-brand-50/90">{t('cta.text')}</p>
            <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
              <ConsultButtonIsland variant="white" size="lg" hint={t('consult.general')} label={t('cta.button')} />
              <ButtonLink to={`/${lang}/contact`} variant="ghost" size="lg" className="border border-white/40 bg-white/10 text-white hover:bg-white/20">
                {t('cta.secondary')}
              </ButtonLink>
            </div>
          </div>
        </div>
      </section>
    </main>
  );
}

/** One service of the list: icon, start price, name linking to its page, description, consultation and details. */
function ServiceCard({ service, gradient }: { service: LocalService; gradient: string }) {
  const { t } = useTranslation('services');
  const lang = useLanguage();
  const Icon = serviceIcon(service.icon);
  const href = `/${lang}/services/${service.id}`;
  return (
    <li className="flex flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-sm" data-testid="local-service-card">
      <div className="flex items-start justify-between gap-3">
        <span className={`grid size-12 shrink-0 place-items-center rounded-xl bg-gradient-to-br text-white ${gradient}`}>
          <Icon className="size-6" aria-hidden="true" />
        </span>
        <Badge tone="neutral">{startPrice(t, service.priceQepik, lang)}</Badge>
      </div>
      <h3 className="mt-5 text-lg font-bold break-words text-slate-900">
        <Link to={href} className="rounded hover:text-brand-700">
          {service.name}
        </Link>
      </h3>
      <p className="mt-2 flex-1 text-sm leading-relaxed break-words text-slate-600">{service.description}</p>
      <div className="mt-6 grid gap-2">
        <ConsultButtonIsland size="sm" hint={service.name} label={t('consult.button')} />
        <ButtonLink size="sm" variant="outline" to={href} aria-label={t('detailsOf', { name: service.name })}>
          {t('details')}
        </ButtonLink>
      </div>
    </li>
  );
}

/** Static apart from its islands (islands/island.tsx). */
export const islands = true;
