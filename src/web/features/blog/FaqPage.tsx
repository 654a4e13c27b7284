import { ChevronDown, MessageCircleQuestion } from 'lucide-react';
import { useTranslation } from '../../i18n';
import { useLoaderData, type LoaderFunctionArgs } from 'react-router';
import type { PageMeta } from '../../app/page';
import { routeLanguage } from '../../app/page';
import { ButtonLink } from '../../components/ui/Button';
import { PageHero } from '../../components/ui/PageHero';
import { useLanguage } from '../../lib/language';
import { contentGet, loaderApi, paragraphs, type FaqEntry } from './api';

export const ns = ['blog'];
export const meta: PageMeta = ({ t, site }) => ({ title: t('blog:faq.metaTitle', { site: site.site_name }), description: t('blog:faq.metaDescription', { site: site.site_name }) });

export async function loader(args: LoaderFunctionArgs) {
  const lang = routeLanguage(args.params, args.request);
  const data = await contentGet(loaderApi(args).content.faq.$get({ query: { lang } }));
  return { items: data?.items ?? [] };
}

/** /{lang}/faq: questions as an accordion (native disclosure elements, usable before hydration). */
export default function FaqPage() {
  const { t } = useTranslation('blog');
  const lang = useLanguage();
  const { items } = useLoaderData<{ items: FaqEntry[] }>();
  return (
    <main id="main">
      <PageHero title={t('faq.title')} subtitle={t('faq.subtitle')} />
      <section aria-label={t('faq.title')} className="mx-auto w-full max-w-3xl px-4 py-14 sm:px-6">
        {items.length === 0 ? (
          <p className="text-center text-slate-600">{t('faq.empty')}</p>
        ) : (
          <div className="divide-y divide-slate-200 overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm">
            {items.map((item) => (
              <details key={item.id} className="group" data-testid="faq-item">
                <summary className="flex cursor-pointer list-none items-center justify-between gap-4 px-6 py-5 text-left font-semibold text-slate-900 hover:bg-slate-50 [&::-webkit-details-marker]:hidden">
                  <span>{item.question}</span>
                  <ChevronDown className="size-5 shrink-0 text-slate-500 transition-transform group-open:rotate-180" aria-hidden="true" />
                </summary>
                <div className="space-y-3 px-6 pb-6 leading-relaxed text-slate-600">
                  {paragraphs(item.answer).map((lines, i) => (
                    <p key={i}>{lines.join(' ')}</p>
                  ))}
                </div>
              </details>
            ))}
          </div>
        )}
        <div className="mt-12 flex flex-col items-center gap-4 rounded-2xl bg-brand-50 px-6 py-8 text-center">
          <MessageCircleQuestion className="size-8 text-brand-600" aria-hidden="true" />
          <p className="font-semibold text-slate-900">{t('faq.more')}</p>
          <ButtonLink to={`/${lang}/contact`}>{t('faq.contact')}</ButtonLink>
        </div>
      </section>
    </main>
  );
}

/** Static apart from its islands (islands/island.tsx). */
export const islands = true;
