import { ArrowRight, CalendarDays, Newspaper } from 'lucide-react';
import { useTranslation } from '../../i18n';
import { Link, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import type { PageMeta } from '../../app/page';
import { routeLanguage } from '../../app/page';
import { PageHero } from '../../components/ui/PageHero';
import { useLanguage } from '../../lib/language';
import { contentGet, loaderApi, type PostSummary } from './api';
import { formatDay } from '../../lib/format';

export const ns = ['blog'];
export const meta: PageMeta = ({ t, site }) => ({ title: t('blog:list.metaTitle', { site: site.site_name }), description: t('blog:list.metaDescription', { site: site.site_name }) });

export async function loader(args: LoaderFunctionArgs) {
  const lang = routeLanguage(args.params, args.request);
  const data = await contentGet(loaderApi(args).content.blog.$get({ query: { lang } }));
  return { posts: data?.posts ?? [] };
}

/** /{lang}/blog: published posts, newest first. */
export default function BlogPage() {
  const { t } = useTranslation('blog');
  const lang = useLanguage();
  const { posts } = useLoaderData<{ posts: PostSummary[] }>();
  return (
    <main id="main">
      <PageHero title={t('list.title')} subtitle={t('list.subtitle')} />
      <section aria-label={t('list.title')} className="mx-auto w-full max-w-7xl px-4 py-14 sm:px-6 lg:px-8">
        {posts.length === 0 ? (
          <div className="mx-auto flex max-w-md flex-col items-center py-10 text-center">
            <span className="grid size-14 place-items-center rounded-2xl bg-brand-50 text-brand-600">
              <Newspaper className="size-7" aria-hidden="true" />
            </span>
            <p className="mt-4 text-slate-600">{t('list.empty')}</p>
          </div>
        ) : (
          <ul className="grid gap-6 md:grid-cols-2 lg:grid-cols-3">
            {posts.map((p) => (
              <li key={p.slug}>
                <article className="flex h-full flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-sm transition hover:-translate-y-0.5 hover:border-brand-200 hover:shadow-md">
                  <p className="flex items-center gap-1.5 text-sm text-slate-500">
                    <CalendarDays className="size-4" aria-hidden="true" />
                    <time dateTime={p.publishedOn}>{formatDay(p.publishedOn, lang)}</time>
                  </p>
                  <h2 className="mt-3 text-xl font-bold text-slate-900">
                    <Link to={`/${lang}/blog/${p.slug}`} className="rounded hover:text-brand-700">
                      {p.title}
                    </Link>
                  </h2>
                  {p.excerpt ? <p className="mt-3 flex-1 leading-relaxed text-slate-600">{p.excerpt}</p> : <div className="flex-1" />}
                  <Link to={`/${lang}/blog/${p.slug}`} className="mt-5 inline-flex items-center gap-1.5 self-start rounded text-sm font-semibold text-brand-700 hover:text-brand-600" aria-label={t('list.readMoreAbout', { title: p.title })}>
                    {t('list.readMore')}
                    <ArrowRight className="size-4" aria-hidden="true" />
                  </Link>
                </article>
              </li>
            ))}
          </ul>
        )}
      </section>
    </main>
  );
}

/** Static apart from its islands (islands/island.tsx). */
export const islands = true;
