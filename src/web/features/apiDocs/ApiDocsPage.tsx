import { useLoaderData, type LoaderFunctionArgs } from 'react-router';
import type { Language } from '../../../core/i18n';
import { V2_COMMON_PARAMS, V2_FORMATS, V2_FORMS, type V2Form, type V2Param } from '../../../core/resellerApiActions';
import { useTranslation } from '../../i18n';
import type { PageMeta } from '../../app/page';
import { routeLanguage } from '../../app/page';
import { useSite } from '../../app/site';
import { PageHero } from '../../components/ui/PageHero';
import { curlExample, curlOf, ERRORS, phpExample, STATUSES } from './examples';

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

/** What tells a form apart from the action's others: the service type of `add`, the list of `status (orders)`. */
function variantOf(form: V2Form): string | null {
  if (form.type) return form.type;
  const [first] = form.params;
  return first?.format === 'ids' ? first.name : null;
}

type Row = Pick<V2Param, 'name' | 'required' | 'format' | 'description' | 'aliases'>;

/** A form's parameters, `key` and `action` first: name, format, whether required, meaning (from the definitions). */
function ParamTable({ form, lang }: { form: V2Form; lang: Language }) {
  const { t } = useTranslation('api-docs');
  const rows: Row[] = [...V2_COMMON_PARAMS, ...form.params];
  const required = (row: Row) => (row.required ? t('params.yes') : t('params.optional'));
  return (
    <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{t('params.caption', { action: form.action })}</caption>
        <thead className="bg-slate-50 text-xs uppercase text-slate-500">
          <tr>
            <th scope="col" className="px-4 py-2">{t('params.name')}</th>
            <th scope="col" className="hidden px-4 py-2 sm:table-cell">{t('params.format')}</th>
            <th scope="col" className="hidden px-4 py-2 sm:table-cell">{t('params.required')}</th>
            <th scope="col" className="px-4 py-2">{t('params.description')}</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((row) => (
            <tr key={row.name} data-param={row.name} data-required={row.required ? 'yes' : 'no'}>
              <td className="px-4 py-2 align-top">
                <code className="font-mono text-slate-900">{row.name}</code>
                {row.aliases?.length ? <div className="font-mono text-xs text-slate-500">{row.aliases.join(', ')}</div> : null}
                {/* On phones the format and whether it is required stand under the name. */}
                <div className="mt-0.5 text-xs text-slate-500 sm:hidden">
                  {V2_FORMATS[row.format][lang]} · {required(row)}
                </div>
              </td>
              <td className="hidden px-4 py-2 align-top text-slate-600 sm:table-cell">{V2_FORMATS[row.format][lang]}</td>
              <td className={`hidden whitespace-nowrap px-4 py-2 align-top sm:table-cell ${row.required ? 'font-semibold text-slate-800' : 'text-slate-500'}`}>{required(row)}</td>
              <td className="px-4 py-2 align-top text-slate-700">{row.name === 'action' ? <code className="font-mono">{form.action}</code> : row.description[lang]}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** /{lang}/api: the reseller API (SMM Panel API v2) for signed-out visitors, every action in every form, with examples. */
export default function ApiDocsPage() {
  const { t } = useTranslation('api-docs');
  const site = useSite();
  const { endpoint, lang } = useLoaderData<{ endpoint: string; lang: Language }>();

  return (
    <main id="main">
      <PageHero title={t('title')} subtitle={t('subtitle', { site: site.site_name })} />
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-12 sm:px-6 lg:grid-cols-[15rem_minmax(0,1fr)] lg:px-8">
        <nav aria-label={t('toc')} className="lg:sticky lg:top-24 lg:max-h-[calc(100vh-7rem)] lg:self-start lg:overflow-y-auto">
          <ul className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-3 lg:grid-cols-1">
            <li><a href="#basics" className="text-brand-700 hover:underline">{t('basics.title')}</a></li>
            {V2_FORMS.map((f) => {
              const variant = variantOf(f);
              return (
                <li key={f.id} className={f.type && f.type !== 'Default' ? 'lg:pl-4' : undefined}>
                  <a href={`#${f.id}`} className="break-words font-mono text-brand-700 hover:underline">
                    {/* The types of add stand indented under it on wide screens, named with it on phones. */}
                    {f.type && f.type !== 'Default' ? <span className="lg:hidden">{f.action} · </span> : null}
                    {f.type && f.type !== 'Default' ? f.type : f.action}
                    {variant && !f.type ? ` (${variant})` : ''}
                  </a>
                </li>
              );
            })}
            <li><a href="#errors" className="text-brand-700 hover:underline">{t('errors.title')}</a></li>
            <li><a href="#examples" className="text-brand-700 hover:underline">{t('examples.title')}</a></li>
          </ul>
        </nav>

        <div className="min-w-0 space-y-12">
          <section id="basics" aria-labelledby="basics-h" className="space-y-4">
            <h2 id="basics-h" className="text-2xl font-bold text-slate-900">{t('basics.title')}</h2>
            <dl className="grid gap-x-4 gap-y-1 rounded-2xl border border-slate-200 bg-white p-5 text-sm sm:grid-cols-[10rem_minmax(0,1fr)] sm:gap-y-3">
              <dt className="font-semibold text-slate-700">{t('basics.url')}</dt>
              <dd className="mb-2 sm:mb-0"><code className="break-all font-mono text-slate-900" data-testid="api-endpoint">{endpoint}</code></dd>
              <dt className="font-semibold text-slate-700">{t('basics.method')}</dt>
              <dd className="mb-2 sm:mb-0">{t('basics.methodText')}</dd>
              <dt className="font-semibold text-slate-700">{t('basics.key')}</dt>
              <dd className="mb-2 sm:mb-0">
                {t('basics.keyText')}{' '}
                <a href={`/${lang}/dashboard#api`} className="font-semibold text-brand-700 hover:underline">{t('basics.keyLink')}</a>
              </dd>
              <dt className="font-semibold text-slate-700">{t('basics.answer')}</dt>
              <dd className="mb-2 sm:mb-0">{t('basics.answerText')}</dd>
              <dt className="font-semibold text-slate-700">{t('basics.money')}</dt>
              <dd className="mb-2 sm:mb-0" data-testid="api-money">{t('basics.moneyText')}</dd>
              <dt className="font-semibold text-slate-700">{t('basics.dripfeed')}</dt>
              <dd className="mb-2 sm:mb-0">{t('basics.dripfeedText')}</dd>
              <dt className="font-semibold text-slate-700">{t('basics.limit')}</dt>
              <dd className="break-words">{t('basics.limitText')}</dd>
            </dl>
          </section>

          {V2_FORMS.map((f) => {
            const variant = variantOf(f);
            return (
              <section key={f.id} id={f.id} data-action={f.action} aria-labelledby={`${f.id}-h`} className="scroll-mt-24 space-y-3">
                <h2 id={`${f.id}-h`} className="break-words font-mono text-xl font-bold text-slate-900">
                  {`action=${f.action}`}
                  {variant ? <span className="ml-2 text-base font-normal text-slate-500">({variant})</span> : null}
                </h2>
                <p className="text-slate-700">{f.description[lang]}</p>
                <ParamTable form={f} lang={lang} />
                <p className="text-sm font-semibold text-slate-700">{t('request')}</p>
                <Code label={`${t('request')}: ${f.action}`}>{curlOf(endpoint, f)}</Code>
                <p className="text-sm font-semibold text-slate-700">{t('reply')}</p>
                <Code label={`${t('reply')}: ${f.action}`}>{JSON.stringify(f.reply, null, 2)}</Code>
                {f.extraFields?.length ? (
                  <>
                    <p className="text-sm font-semibold text-slate-700">{t('extraFields')}</p>
                    <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[10rem_minmax(0,1fr)]">
                      {f.extraFields.map((field) => (
                        <div key={field.name} data-answer-field={field.name} className="contents">
                          <dt><code className="font-mono text-slate-900">{field.name}</code></dt>
                          <dd className="mb-2 text-slate-700 sm:mb-0">{field.description[lang]}</dd>
                        </div>
                      ))}
                    </dl>
                  </>
                ) : null}
              </section>
            );
          })}

          <section id="errors" aria-labelledby="errors-h" className="space-y-3">
            <h2 id="errors-h" className="text-2xl font-bold text-slate-900">{t('errors.title')}</h2>
            <p className="text-slate-700">{t('errors.text')}</p>
            <ul className="list-outside list-disc space-y-1 break-words pl-5 font-mono text-sm text-slate-800">
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
