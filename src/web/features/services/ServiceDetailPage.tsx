import { ArrowLeft, CheckCircle2, ChevronRight, ClipboardList, Lightbulb, Rocket, Star, Trophy } from 'lucide-react';
import { useTranslation } from '../../i18n';
import { data, Link, useLoaderData, useNavigation, type LoaderFunctionArgs } from 'react-router';
import type { PageMeta } from '../../app/page';
import { Badge } from '../../components/ui/Badge';
import { ButtonLink } from '../../components/ui/Button';
import { Spinner } from '../../components/ui/Spinner';
import { useLanguage } from '../../lib/language';
import { platformDisplayName } from '../../../core/platforms';
import { fetchLocalService, startPrice, type LocalService } from './api';
import { serviceIcon } from './serviceIcons';
import { ServiceFigures } from './ServiceFigures';
import { ConsultButtonIsland } from './ConsultButton';

export const ns = ['services'];

interface DetailData {
  service: LocalService | null;
}

/** The active service of the address's id; an unknown or inactive one answers 404 with the not-found state. */
export async function loader(args: LoaderFunctionArgs) {
  const service = await fetchLocalService(args);
  if (!service) return data<DetailData>({ service: null }, { status: 404 });
  return { service } satisfies DetailData;
}

export const meta: PageMeta = ({ t, data, site }) => {
  const service = (data as DetailData | undefined)?.service;
  if (!service) return { title: t('services:detail.notFoundTitle', { site: site.site_name }) };
  return { title: t('services:detail.metaTitle', { name: service.name, site: site.site_name }), description: service.description || undefined };
};

const STEPS = [
  { key: 'consultation', icon: ClipboardList },
  { key: 'strategy', icon: Lightbulb },
  { key: 'execution', icon: Rocket },
  { key: 'result', icon: Trophy },
] as const;

export default function ServiceDetailPage() {
  const { t } = useTranslation('services');
  const lang = useLanguage();
  const { service } = useLoaderData() as DetailData;
  const navigation = useNavigation();

  // Moving from one service to another keeps this page mounted; show the wait instead of stale text.
  if (navigation.state === 'loading' && navigation.location.pathname.startsWith(`/${lang}/services/`)) {
    return (
      <main id="main" className="grid flex-1 place-items-center py-32">
        <Spinner label={t('detail.loading')} className="size-10" />
      </main>
    );
  }

  if (!service) {
    return (
      <main id="main" className="mx-auto flex max-w-xl flex-1 flex-col items-center justify-center px-4 py-24 text-center">
        <h1 className="text-3xl font-extrabold text-slate-900">{t('detail.notFound')}</h1>
        <p className="mt-3 text-slate-600">{t('detail.notFoundText')}</p>
        <ButtonLink to={`/${lang}`} className="mt-8">
          <ArrowLeft className="size-4" aria-hidden="true" />
          {t('detail.backHome')}
        </ButtonLink>
      </main>
    );
  }

  const Icon = serviceIcon(service.icon);
  const name = service.name;
  const about = service.details || service.description;

  return (
    <main id="main">
      <section className="relative isolate overflow-hidden bg-gradient-to-br from-brand-600 via-brand-500 to-violet-600 text-white">
        <div className="mx-auto max-w-7xl px-4 py-12 sm:px-6 sm:py-16 lg:px-8">
          <nav aria-label={t('detail.breadcrumb')}>
            <ol className="flex flex-wrap items-center gap-1.5 text-sm text-brand-50/90">
              <li>
                <Link to={`/${lang}`} className="rounded hover:text-white hover:underline">
                  {t('detail.home')}
                </Link>
              </li>
              <li aria-hidden="true">
                <ChevronRight className="size-4" />
              </li>
              <li>
                <Link to={`/${lang}/services`} className="rounded hover:text-white hover:underline">
                  {t('detail.services')}
                </Link>
              </li>
              <li aria-hidden="true">
                <ChevronRight className="size-4" />
              </li>
              <li aria-current="page" className="font-semibold text-white">
                {name}
              </li>
            </ol>
          </nav>
          <div className="mt-8 flex flex-col gap-6 sm:flex-row sm:items-center">
            <span className="grid size-16 shrink-0 place-items-center rounded-2xl bg-white/15 ring-1 ring-white/25">
              <Icon className="size-8" aria-hidden="true" />
            </span>
            <div>
              <h1 className="text-3xl font-extrabold tracking-tight text-balance break-words sm:text-5xl">{name}</h1>
              <ul className="mt-4 flex flex-wrap gap-2" aria-label={t('detail.facts')}>
                <li>
                  <Badge className="bg-white/15 text-white ring-white/30">{t(`detail.category.${service.category}`)}</Badge>
                </li>
                <li>
                  <Badge className="bg-white text-brand-700 ring-white">{startPrice(t, service.priceQepik, lang)}</Badge>
                </li>
                {service.platform ? (
                  <li>
                    <Badge className="bg-white/15 text-white ring-white/30">{platformDisplayName(service.platform)}</Badge>
                  </li>
                ) : null}
              </ul>
            </div>
          </div>
        </div>
      </section>

      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-16 sm:px-6 lg:grid-cols-3 lg:px-8">
        <div className="space-y-14 lg:col-span-2">
          {about ? (
            <section aria-labelledby="about-heading">
              <h2 id="about-heading" className="text-2xl font-extrabold tracking-tight text-slate-900">
                {t('detail.about')}
              </h2>
              <p className="mt-4 text-lg leading-relaxed break-words whitespace-pre-line text-slate-600">{about}</p>
            </section>
          ) : null}

          {service.benefits.length ? (
            <section aria-labelledby="benefits-heading">
              <h2 id="benefits-heading" className="text-2xl font-extrabold tracking-tight text-slate-900">
                {t('detail.benefits')}
              </h2>
              <ul className="mt-6 grid gap-4 sm:grid-cols-2">
                {service.benefits.map((b, i) => (
                  <li key={i} className="flex items-start gap-3 rounded-xl bg-slate-50 p-4 break-words text-slate-700 ring-1 ring-slate-200">
                    <CheckCircle2 className="mt-0.5 size-5 shrink-0 text-emerald-600" aria-hidden="true" />
                    {b}
                  </li>
                ))}
              </ul>
            </section>
          ) : null}

          <section aria-labelledby="process-heading">
            <h2 id="process-heading" className="text-2xl font-extrabold tracking-tight text-slate-900">
              {t('detail.process.title')}
            </h2>
            <ol className="mt-6 grid gap-4 sm:grid-cols-2">
              {STEPS.map(({ key, icon: StepIcon }, i) => (
                <li key={key} className="relative rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
                  <span className="absolute right-5 top-5 text-4xl font-extrabold text-brand-100" aria-hidden="true">
                    {i + 1}
                  </span>
                  <StepIcon className="size-7 text-brand-600" aria-hidden="true" />
                  <h3 className="mt-4 font-bold text-slate-900">{t(`detail.process.steps.${key}.title`)}</h3>
                  <p className="mt-2 text-sm leading-relaxed text-slate-600">{t(`detail.process.steps.${key}.text`)}</p>
                </li>
              ))}
            </ol>
          </section>
        </div>

        <aside aria-labelledby="consult-heading">
          <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-lg lg:sticky lg:top-24">
            <h2 id="consult-heading" className="text-xl font-bold text-slate-900">
              {t('detail.consultCard.title')}
            </h2>
            <p className="mt-2 text-sm leading-relaxed text-slate-600">{t('detail.consultCard.text')}</p>
            <p className="mt-5 text-sm text-slate-500">{t('detail.consultCard.price')}</p>
            <p className="text-3xl font-extrabold text-slate-900">{startPrice(t, service.priceQepik, lang)}</p>
            <ConsultButtonIsland className="mt-6 w-full" size="lg" hint={name} label={t('consult.button')} withIcon />
            <p className="mt-3 flex items-center justify-center gap-1.5 text-xs text-slate-500">
              <Star className="size-3.5 fill-amber-400 text-amber-400" aria-hidden="true" />
              {t('detail.consultCard.note')}
            </p>
            <div className="mt-6 border-t border-slate-100 pt-6">
              <h3 className="sr-only">{t('figures.heading')}</h3>
              <ServiceFigures compact />
            </div>
          </div>
        </aside>
      </div>
    </main>
  );
}

/** Static apart from its islands (islands/island.tsx). */
export const islands = true;
