import {
  ArrowRight,
  BadgeCheck,
  ChevronDown,
  Clock,
  CreditCard,
  Headphones,
  HeartHandshake,
  ShieldCheck,
  Sparkles,
  Star,
  Trophy,
  Undo2,
  Users,
  Zap,
} from 'lucide-react';
import { useTranslation } from '../../i18n';
import { Link, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import type { PageMeta } from '../../app/page';
import { useSite } from '../../app/site';
import { ButtonLink, buttonClass } from '../../components/ui/Button';
import { SectionHeading } from '../../components/ui/SectionHeading';
import { useLanguage } from '../../lib/language';
import { platformsLoader, usePlatforms } from '../catalog';
import { fetchLocalServices, serviceGradient, serviceIcon, startPrice } from '../services';
import { PlatformGrid } from './PlatformGrid';

export const ns = ['home', 'services'];
/** The platforms for the grid and the agency's main services, so the first render shows them. */
export async function loader(args: LoaderFunctionArgs) {
  const [platforms, services] = await Promise.all([platformsLoader(args), fetchLocalServices(args)]);
  return { ...platforms, popular: (services ?? []).filter((s) => s.category === 'standard').slice(0, 6) };
}
/** The shop's own description (Admin → Settings, written in Azerbaijani) on the az home page; tr and en read their own. */
export const meta: PageMeta = ({ t, lang, site }) => ({
  title: t('home:meta.title', { site: site.site_name }),
  description: lang === 'az' && site.site_description ? site.site_description : t('home:meta.description', { site: site.site_name }),
});

const STATS = ['orders', 'customers', 'satisfaction', 'support'] as const;
const WHY = [
  { key: 'quality', icon: Trophy },
  { key: 'speed', icon: Zap },
  { key: 'safety', icon: ShieldCheck },
  { key: 'support', icon: Headphones },
] as const;
const GUARANTEES = [
  { key: 'result', icon: BadgeCheck },
  { key: 'satisfaction', icon: HeartHandshake },
  { key: 'moneyBack', icon: Undo2 },
  { key: 'support', icon: Clock },
  { key: 'payment', icon: CreditCard },
  { key: 'fast', icon: Zap },
  { key: 'real', icon: Users },
] as const;

export default function HomePage() {
  const { t } = useTranslation(['home', 'services']);
  const lang = useLanguage();
  const site = useSite();
  const loaded = useLoaderData() as Awaited<ReturnType<typeof loader>> | undefined;
  const { platforms, loading } = usePlatforms(loaded?.platforms);
  const popular = loaded?.popular ?? [];

  return (
    <main id="main">
      {/* Hero */}
      <section className="relative isolate overflow-hidden bg-gradient-to-br from-brand-600 via-brand-500 to-violet-600 text-white">
        <div aria-hidden="true" className="absolute -right-24 -top-24 -z-10 size-96 rounded-full bg-white/10 blur-3xl" />
        <div className="mx-auto max-w-7xl px-4 pb-20 pt-16 sm:px-6 sm:pb-28 sm:pt-24 lg:px-8">
          <div className="max-w-3xl">
            <p className="inline-flex items-center gap-2 rounded-full bg-white/15 px-3 py-1 text-sm font-medium ring-1 ring-white/25">
              <Sparkles className="size-4" aria-hidden="true" />
              {t('hero.badge')}
            </p>
            <h1 className="mt-6 text-4xl font-extrabold leading-tight tracking-tight text-balance sm:text-5xl lg:text-6xl">
              {t('hero.title')} <span className="text-amber-200">{t('hero.highlight')}</span>
            </h1>
            <p className="mt-6 max-w-2xl text-lg leading-relaxed text-brand-50/90 sm:text-xl">{t('hero.subtitle')}</p>
            <div className="mt-10 flex flex-col gap-3 sm:flex-row">
              <a href="#services" className={buttonClass('white', 'lg')}>
                {t('hero.cta')}
                <ChevronDown className="size-5" aria-hidden="true" />
              </a>
              <ButtonLink
                to={`/${lang}/contact`}
                size="lg"
                className="border border-white/40 bg-white/10 text-white hover:bg-white/20"
                variant="ghost"
              >
                {t('hero.secondary')}
              </ButtonLink>
            </div>
            <p className="mt-8 flex items-center gap-2 text-sm text-brand-50/90">
              <span className="flex text-amber-300" aria-hidden="true">
                {[0, 1, 2, 3, 4].map((i) => (
                  <Star key={i} className="size-4 fill-current" />
                ))}
              </span>
              {t('hero.trust')}
            </p>
          </div>
        </div>
        {/* Anchored to the bottom, so it comes after the content: a page painted while it is still
            arriving does not move it as the hero grows. */}
        <div aria-hidden="true" className="absolute -bottom-32 -left-16 -z-10 size-96 rounded-full bg-fuchsia-400/20 blur-3xl" />
      </section>

      {/* Statistics */}
      <section aria-labelledby="stats-heading" className="relative -mt-10 px-4 sm:px-6 lg:px-8">
        <h2 id="stats-heading" className="sr-only">
          {t('stats.heading', { site: site.site_name })}
        </h2>
        <dl className="mx-auto grid max-w-5xl grid-cols-2 gap-px overflow-hidden rounded-2xl bg-slate-200 shadow-xl ring-1 ring-slate-200 md:grid-cols-4">
          {STATS.map((key) => (
            <div key={key} className="flex flex-col-reverse items-center bg-white px-4 py-6 text-center">
              <dt className="mt-1 text-sm font-medium text-slate-600">{t(`stats.${key}.label`)}</dt>
              <dd className="text-3xl font-extrabold tracking-tight text-brand-600 sm:text-4xl">{t(`stats.${key}.value`)}</dd>
            </div>
          ))}
        </dl>
      </section>

      {/* Popular platforms */}
      <section id="services" tabIndex={-1} aria-labelledby="platforms-heading" className="scroll-mt-20 py-20 outline-none sm:py-24">
        <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
          <SectionHeading id="platforms-heading" title={t('platforms.title')} subtitle={t('platforms.subtitle')} />
          <div className="mt-12">
            <PlatformGrid platforms={platforms} loading={loading} />
          </div>
        </div>
      </section>

      {/* Why us */}
      <section aria-labelledby="why-heading" className="bg-slate-50 py-20 sm:py-24">
        <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
          <SectionHeading id="why-heading" title={t('why.title')} subtitle={t('why.subtitle')} />
          <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
            {WHY.map(({ key, icon: Icon }) => (
              <li key={key} className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
                <span className="grid size-12 place-items-center rounded-xl bg-brand-50 text-brand-600">
                  <Icon className="size-6" aria-hidden="true" />
                </span>
                <h3 className="mt-5 text-lg font-bold text-slate-900">{t(`why.items.${key}.title`)}</h3>
                <p className="mt-2 text-sm leading-relaxed text-slate-600">{t(`why.items.${key}.text`)}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      {/* Guarantees */}
      <section aria-labelledby="guarantees-heading" className="py-20 sm:py-24">
        <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
          <SectionHeading id="guarantees-heading" title={t('guarantees.title')} subtitle={t('guarantees.subtitle')} />
          <ul className="mt-12 flex flex-wrap justify-center gap-4">
            {GUARANTEES.map(({ key, icon: Icon }) => (
              <li key={key} className="flex w-full gap-4 rounded-2xl p-5 ring-1 ring-slate-200 sm:w-[calc(50%-0.5rem)] lg:w-[calc(25%-0.75rem)]">
                <span className="grid size-10 shrink-0 place-items-center rounded-full bg-emerald-50 text-emerald-600">
                  <Icon className="size-5" aria-hidden="true" />
                </span>
                <div>
                  <h3 className="font-bold text-slate-900">{t(`guarantees.items.${key}.title`)}</h3>
                  <p className="mt-1 text-sm leading-relaxed text-slate-600">{t(`guarantees.items.${key}.text`)}</p>
                </div>
              </li>
            ))}
          </ul>
        </div>
      </section>

      {/* Popular services */}
      <section aria-labelledby="popular-heading" className="bg-slate-50 py-20 sm:py-24">
        <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
          <SectionHeading id="popular-heading" title={t('popular.title')} subtitle={t('popular.subtitle')} />
          <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {popular.map((service, i) => {
              const Icon = serviceIcon(service.icon);
              return (
              <li key={service.id}>
                <Link
                  to={`/${lang}/services/${service.id}`}
                  className="group flex h-full flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-sm transition hover:-translate-y-0.5 hover:border-brand-200 hover:shadow-md"
                >
                  <span className={`grid size-12 place-items-center rounded-xl bg-gradient-to-br text-white ${serviceGradient(i)}`}>
                    <Icon className="size-6" aria-hidden="true" />
                  </span>
                  <h3 className="mt-5 text-lg font-bold text-slate-900">{service.name}</h3>
                  <p className="mt-2 flex-1 text-sm leading-relaxed text-slate-600">{service.description}</p>
                  <span className="mt-5 flex items-center justify-between text-sm font-semibold">
                    <span className="text-slate-900">
                      {startPrice(t, service.priceQepik, lang)}
                    </span>
                    <span className="inline-flex items-center gap-1 text-brand-600">
                      {t('services:details')}
                      <ArrowRight className="size-4 transition group-hover:translate-x-0.5" aria-hidden="true" />
                    </span>
                  </span>
                </Link>
              </li>
              );
            })}
          </ul>
          <div className="mt-10 text-center">
            <ButtonLink to={`/${lang}/services`} variant="outline">
              {t('popular.all')}
              <ArrowRight className="size-4" aria-hidden="true" />
            </ButtonLink>
          </div>
        </div>
      </section>
    </main>
  );
}

/** Static apart from its islands (islands/island.tsx). */
export const islands = true;
