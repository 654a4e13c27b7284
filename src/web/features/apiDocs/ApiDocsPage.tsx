import { useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { useTranslation } from '../../i18n';
import type { PageMeta } from '../../app/page';
import { routeLanguage } from '../../app/page';
import { useSite } from '../../app/site';
import { PageHero } from '../../components/ui/PageHero';
import { ACTIONS, curlExample, ERRORS, phpExample, STATUSES } from './examples';

export const ns = ['api-docs'];
export const meta: PageMeta = ({ t, site }) => ({ title: `${t('api-docs:meta.title')} · ${site.site_name}`, description: t('api-docs:meta.description') });

/**
 * The endpoint at the address the page was asked for. Behind the TLS-terminating proxy the server
 * sees plain HTTP, so any host but a loopback one is written with https.
 */
export function endpointOf(pageUrl: string): string {
  const url = new URL('/api/v2', pageUrl);
  if (!['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)) url.protocol = 'https:';
  return url.toString();
}
export const loader = ({ request, params }: LoaderFunctionArgs) => ({ endpoint: endpointOf(request.url), lang: routeLanguage(params, request) });

function Code({ children, label }: { children: string; label: string }) {
  return (
    <pre aria-label={label} tabIndex={0} className="overflow-x-auto rounded-xl bg-slate-900 p-4 text-xs leading-relaxed text-slate-100">
      <code>{children}</code>
    </pre>
  );
}

/** /{lang}/api: the reseller API (SMM Panel API v2) for signed-out visitors, every action with examples. */
export default function ApiDocsPage() {
  const { t } = useTranslation('api-docs');
  const site = useSite();
  const { endpoint, lang } = useLoaderData<{ endpoint: string; lang: string }>();
  const anchor = (a: (typeof ACTIONS)[number], i: number) => `${a.action}-${i}`;

  return (
    <main id="main">
      <PageHero title={t('title')} subtitle={t('subtitle', { site: site.site_name })} />
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-12 sm:px-6 lg:grid-cols-[14rem_minmax(0,1fr)] lg:px-8">
        <nav aria-label={t('toc')} className="lg:sticky lg:top-24 lg:self-start">
          <ul className="space-y-1 text-sm">
            <li><a href="#basics" className="text-brand-700 hover:underline">{t('basics.title')}</a></li>
            {ACTIONS.map((a, i) => (
              <li key={anchor(a, i)}>
                <a href={`#${anchor(a, i)}`} className="font-mono text-brand-700 hover:underline">
                  {a.action}
                  {a.params[0] === 'orders' || a.params[0] === 'refills' ? ` (${a.params[0]})` : ''}
                </a>
              </li>
            ))}
            <li><a href="#errors" className="text-brand-700 hover:underline">{t('errors.title')}</a></li>
            <li><a href="#examples" className="text-brand-700 hover:underline">{t('examples.title')}</a></li>
          </ul>
        </nav>

        <div className="min-w-0 space-y-12">
          <section id="basics" aria-labelledby="basics-h" className="space-y-4">
            <h2 id="basics-h" className="text-2xl font-bold text-slate-900">{t('basics.title')}</h2>
            <dl className="grid gap-3 rounded-2xl border border-slate-200 bg-white p-5 text-sm sm:grid-cols-[10rem_minmax(0,1fr)]">
              <dt className="font-semibold text-slate-700">{t('basics.url')}</dt>
              <dd><code className="break-all font-mono text-slate-900" data-testid="api-endpoint">{endpoint}</code></dd>
              <dt className="font-semibold text-slate-700">{t('basics.method')}</dt>
              <dd>{t('basics.methodText')}</dd>
              <dt className="font-semibold text-slate-700">{t('basics.key')}</dt>
              <dd>
                {t('basics.keyText')}{' '}
                <a href={`/${lang}/dashboard#api`} className="font-semibold text-brand-700 hover:underline">{t('basics.keyLink')}</a>
              </dd>
              <dt className="font-semibold text-slate-700">{t('basics.answer')}</dt>
              <dd>{t('basics.answerText')}</dd>
              <dt className="font-semibold text-slate-700">{t('basics.money')}</dt>
              <dd>{t('basics.moneyText')}</dd>
              <dt className="font-semibold text-slate-700">{t('basics.limit')}</dt>
              <dd>{t('basics.limitText')}</dd>
            </dl>
          </section>

          {ACTIONS.map((a, i) => (
            <section key={anchor(a, i)} id={anchor(a, i)} aria-labelledby={`${anchor(a, i)}-h`} className="space-y-3">
              <h2 id={`${anchor(a, i)}-h`} className="font-mono text-xl font-bold text-slate-900">
                {`action=${a.action}`}
                {a.params[0] === 'orders' || a.params[0] === 'refills' ? <span className="ml-2 text-base font-normal text-slate-500">({a.params[0]})</span> : null}
              </h2>
              <p className="text-slate-700">{t(`actions.${a.action}${a.params[0] === 'orders' || a.params[0] === 'refills' ? '_many' : ''}`)}</p>
              <table className="w-full overflow-hidden rounded-xl border border-slate-200 bg-white text-left text-sm">
                <caption className="sr-only">{t('params.caption', { action: a.action })}</caption>
                <thead className="bg-slate-50 text-xs uppercase text-slate-500">
                  <tr>
                    <th scope="col" className="px-4 py-2">{t('params.name')}</th>
                    <th scope="col" className="px-4 py-2">{t('params.description')}</th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {['key', 'action', ...a.params].map((p) => {
                    const name = p.replace(/\?$/, '');
                    return (
                      <tr key={p}>
                        <td className="whitespace-nowrap px-4 py-2 font-mono text-slate-900">
                          {name}
                          {p.endsWith('?') ? <span className="ml-1 font-sans text-xs text-slate-500">({t('params.optional')})</span> : null}
                        </td>
                        <td className="px-4 py-2 text-slate-700">{name === 'action' ? a.action : t(`params.${name}`)}</td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
              <p className="text-sm font-semibold text-slate-700">{t('reply')}</p>
              <Code label={t('reply')}>{JSON.stringify(a.reply, null, 2)}</Code>
            </section>
          ))}

          <section id="errors" aria-labelledby="errors-h" className="space-y-3">
            <h2 id="errors-h" className="text-2xl font-bold text-slate-900">{t('errors.title')}</h2>
            <p className="text-slate-700">{t('errors.text')}</p>
            <ul className="list-inside list-disc space-y-1 font-mono text-sm text-slate-800">
              {ERRORS.map((e) => <li key={e}>{JSON.stringify({ error: e })}</li>)}
            </ul>
            <p className="text-slate-700">{t('errors.statuses')}</p>
            <p className="font-mono text-sm text-slate-800">{STATUSES.join(' · ')}</p>
          </section>

          <section id="examples" aria-labelledby="examples-h" className="space-y-4">
            <h2 id="examples-h" className="text-2xl font-bold text-slate-900">{t('examples.title')}</h2>
            <h3 className="text-lg font-semibold text-slate-900">curl</h3>
            <Code label="curl">{curlExample(endpoint)}</Code>
            <h3 className="text-lg font-semibold text-slate-900">PHP</h3>
            <Code label="PHP">{phpExample(endpoint)}</Code>
          </section>
        </div>
      </div>
    </main>
  );
}
