import { ArrowLeft, CalendarDays } from 'lucide-react';
import { useTranslation } from '../../i18n';
import { data, Link, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import type { PageMeta } from '../../app/page';
import { routeLanguage } from '../../app/page';
import { ButtonLink } from '../../components/ui/Button';
import { useLanguage } from '../../lib/language';
import { contentGet, loaderApi, paragraphs, type Post } from './api';
import { formatDay } from '../../lib/format';

export const ns = ['blog'];

interface PostData {
  post: Post | null;
}

/** The post in the page's language; an unknown or unpublished slug answers 404. */
export async function loader(args: LoaderFunctionArgs) {
  const lang = routeLanguage(args.params, args.request);
  const slug = args.params.slug ?? '';
  const post = /^[a-z0-9-]{1,120}$/.test(slug) ? await contentGet(loaderApi(args).content.blog[':slug'].$get({ param: { slug }, query: { lang } })) : null;
  if (!post) return data<PostData>({ post: null }, { status: 404 });
  return { post } satisfies PostData;
}

export const meta: PageMeta = ({ t, data, site }) => {
  const post = (data as PostData | undefined)?.post;
  if (!post) return { title: `${t('blog:post.notFound')} · ${site.site_name}` };
  return { title: `${post.title} · ${site.site_name}`, description: post.excerpt || undefined };
};

/** /{lang}/blog/:slug: the post as plain paragraphs (never as HTML). */
export default function BlogPostPage() {
  const { t } = useTranslation('blog');
  const lang = useLanguage();
  const { post } = useLoaderData<PostData>();

  if (!post) {
    return (
      <main id="main" className="mx-auto flex max-w-xl flex-1 flex-col items-center justify-center px-4 py-24 text-center">
        <p className="text-6xl font-extrabold tracking-tight text-brand-600">404</p>
        <h1 className="mt-3 text-2xl font-bold text-slate-900">{t('post.notFound')}</h1>
        <p className="mt-2 text-slate-600">{t('post.notFoundText')}</p>
        <ButtonLink to={`/${lang}/blog`} className="mt-8">
          <ArrowLeft className="size-4" aria-hidden="true" />
          {t('post.back')}
        </ButtonLink>
      </main>
    );
  }

  return (
    <main id="main" className="bg-white">
      <article>
        <header className="border-b border-slate-200 bg-gradient-to-b from-brand-50/70 to-white">
          <div className="mx-auto max-w-3xl px-4 py-12 sm:px-6 sm:py-16">
            <Link to={`/${lang}/blog`} className="inline-flex items-center gap-1.5 rounded text-sm font-semibold text-brand-700 hover:text-brand-600">
              <ArrowLeft className="size-4" aria-hidden="true" />
              {t('post.back')}
            </Link>
            <h1 className="mt-6 text-3xl font-extrabold tracking-tight text-balance text-slate-900 sm:text-4xl">{post.title}</h1>
            <p className="mt-4 flex items-center gap-1.5 text-sm text-slate-500">
              <CalendarDays className="size-4" aria-hidden="true" />
              <span className="sr-only">{t('post.published')}</span>
              <time dateTime={post.publishedOn}>{formatDay(post.publishedOn, lang)}</time>
            </p>
            {post.excerpt ? <p className="mt-6 text-lg leading-relaxed text-slate-600">{post.excerpt}</p> : null}
          </div>
        </header>
        <div className="mx-auto max-w-3xl space-y-5 px-4 py-12 text-lg leading-relaxed text-slate-800 sm:px-6" data-testid="post-body">
          {paragraphs(post.body).map((lines, i) => (
            <p key={i}>
              {lines.map((line, j) => (
                <span key={j}>
                  {j > 0 ? <br /> : null}
                  {line}
                </span>
              ))}
            </p>
          ))}
        </div>
      </article>
    </main>
  );
}

/** Static apart from its islands (islands/island.tsx). */
export const islands = true;
