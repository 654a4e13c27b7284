import { Award, Building2, CalendarDays, Crosshair, Globe2, MapPin, ShieldCheck, Target, Users, Zap } from 'lucide-react';
import { useTranslation } from '../../i18n';
import type { PageMeta } from '../../app/page';
import { useSite } from '../../app/site';
import { PageHero } from '../../components/ui/PageHero';
import { SectionHeading } from '../../components/ui/SectionHeading';

export const ns = ['about'];
export const meta: PageMeta = ({ t, site }) => ({ title: t('about:meta.title', { site: site.site_name }), description: t('about:meta.description', { site: site.site_name }) });

const STATS = ['customers', 'orders', 'success', 'support'] as const;
const REASONS = [
  { key: 'security', icon: ShieldCheck },
  { key: 'speed', icon: Zap },
  { key: 'team', icon: Users },
  { key: 'targeted', icon: Crosshair },
  { key: 'quality', icon: Award },
  { key: 'global', icon: Globe2 },
] as const;
const COMPANY = [
  { key: 'name', icon: Building2 },
  { key: 'form', icon: ShieldCheck },
  { key: 'location', icon: MapPin },
  { key: 'founded', icon: CalendarDays },
  { key: 'markets', icon: Globe2 },
] as const;

export default function AboutPage() {
  const { t } = useTranslation('about');
  const site = useSite();
  return (
    <main id="main">
      <PageHero title={t('title')} subtitle={t('description', { site: site.site_name })} />

      <section aria-labelledby="about-stats" className="relative -mt-8 px-4 sm:px-6 lg:px-8">
        <h2 id="about-stats" className="sr-only">
          {t('stats.heading')}
        </h2>
        <dl className="mx-auto grid max-w-5xl grid-cols-2 gap-px overflow-hidden rounded-2xl bg-slate-200 shadow-xl ring-1 ring-slate-200 md:grid-cols-4">
          {STATS.map((key) => (
            <div key={key} className="flex flex-col-reverse items-center bg-white px-4 py-6 text-center">
              <dt className="mt-1 text-sm font-medium text-slate-600">{t(`stats.${key}.label`)}</dt>
              <dd className="text-3xl font-extrabold tracking-tight text-brand-600">{t(`stats.${key}.value`)}</dd>
            </div>
          ))}
        </dl>
      </section>

      <section aria-labelledby="mission-heading" className="py-20 sm:py-24">
        <div className="mx-auto grid max-w-7xl items-center gap-12 px-4 sm:px-6 lg:grid-cols-2 lg:px-8">
          <div>
            <p className="text-sm font-semibold uppercase tracking-wider text-brand-600">{t('mission.eyebrow')}</p>
            <h2 id="mission-heading" className="mt-2 text-3xl font-extrabold tracking-tight text-slate-900 sm:text-4xl">
              {t('mission.title')}
            </h2>
            <p className="mt-6 text-lg leading-relaxed text-slate-600">{t('mission.text')}</p>
            <p className="mt-4 leading-relaxed text-slate-600">{t('mission.text2')}</p>
          </div>
          <div className="relative rounded-3xl bg-gradient-to-br from-brand-50 to-violet-50 p-8 ring-1 ring-brand-100 sm:p-10">
            <Target className="size-12 text-brand-600" aria-hidden="true" />
            <blockquote className="mt-6 text-xl font-semibold leading-relaxed text-slate-800">{t('mission.quote')}</blockquote>
          </div>
        </div>
      </section>

      <section aria-labelledby="reasons-heading" className="bg-slate-50 py-20 sm:py-24">
        <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
          <SectionHeading id="reasons-heading" title={t('reasons.title', { site: site.site_name })} subtitle={t('reasons.subtitle')} />
          <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {REASONS.map(({ key, icon: Icon }) => (
              <li key={key} className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
                <span className="grid size-12 place-items-center rounded-xl bg-brand-50 text-brand-600">
                  <Icon className="size-6" aria-hidden="true" />
                </span>
                <h3 className="mt-5 text-lg font-bold text-slate-900">{t(`reasons.items.${key}.title`)}</h3>
                <p className="mt-2 text-sm leading-relaxed text-slate-600">{t(`reasons.items.${key}.text`)}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section aria-labelledby="company-heading" className="py-20 sm:py-24">
        <div className="mx-auto max-w-4xl px-4 sm:px-6 lg:px-8">
          <SectionHeading id="company-heading" title={t('company.title')} subtitle={t('company.subtitle')} />
          <dl className="mt-12 divide-y divide-slate-200 overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm">
            {COMPANY.map(({ key, icon: Icon }) => (
              <div key={key} className="flex flex-col gap-1 px-6 py-4 sm:flex-row sm:items-center sm:gap-6">
                <dt className="flex items-center gap-3 text-sm font-medium text-slate-500 sm:w-56">
                  <Icon className="size-5 text-brand-500" aria-hidden="true" />
                  {t(`company.${key}.label`)}
                </dt>
                <dd className="font-semibold text-slate-900">{t(`company.${key}.value`)}</dd>
              </div>
            ))}
          </dl>
        </div>
      </section>
    </main>
  );
}

/** Static apart from its islands (islands/island.tsx). */
export const islands = true;
