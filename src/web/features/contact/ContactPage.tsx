import { CheckCircle2, Clock, Mail, MapPin, MessageSquare, Phone } from 'lucide-react';
import { useTranslation } from '../../i18n';
import type { PageMeta } from '../../app/page';
import { telHref, useSite } from '../../app/site';
import { PageHero } from '../../components/ui/PageHero';
import { island } from '../../islands/island';
import { ContactForm } from '../support/pages';

// Woken at the first touch: what is typed before it is live is kept (islands/replay.ts).
const ContactFormIsland = island('ContactForm', ContactForm, { wake: 'touched' });

export const ns = ['contact', 'support'];
export const meta: PageMeta = ({ t, site }) => ({ title: t('contact:meta.title', { site: site.site_name }), description: t('contact:meta.description', { site: site.site_name }) });

export default function ContactPage() {
  const { t } = useTranslation('contact');
  const why = t('why.items', { returnObjects: true }) as string[];
  const site = useSite();
  const details = [
    { key: 'email', icon: Mail, value: site.contact_email, href: `mailto:${site.contact_email}` },
    { key: 'phone', icon: Phone, value: site.contact_phone, href: telHref(site.contact_phone) },
    { key: 'address', icon: MapPin, value: t('common:company.address'), href: undefined },
  ] as const;

  return (
    <main id="main">
      <PageHero title={t('hero.title')} subtitle={t('hero.subtitle')} />

      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-16 sm:px-6 lg:grid-cols-5 lg:px-8 lg:py-20">
        <div className="space-y-8 lg:col-span-2">
          <section aria-labelledby="details-heading" className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
            <h2 id="details-heading" className="text-xl font-bold text-slate-900">
              {t('details.title')}
            </h2>
            <ul className="mt-6 space-y-5">
              {details.map(({ key, icon: Icon, value, href }) => (
                <li key={key} className="flex items-start gap-4">
                  <span className="grid size-11 shrink-0 place-items-center rounded-xl bg-brand-50 text-brand-600">
                    <Icon className="size-5" aria-hidden="true" />
                  </span>
                  <div>
                    <p className="text-sm text-slate-500">{t(`details.${key}`)}</p>
                    {href ? (
                      <a href={href} className="rounded font-semibold text-slate-900 hover:text-brand-700">
                        {value}
                      </a>
                    ) : (
                      <p className="font-semibold text-slate-900">{value}</p>
                    )}
                  </div>
                </li>
              ))}
            </ul>
          </section>

          <section aria-labelledby="why-heading" className="rounded-2xl bg-gradient-to-br from-brand-600 to-violet-600 p-6 text-white shadow-sm">
            <h2 id="why-heading" className="text-xl font-bold">
              {t('why.title')}
            </h2>
            <ul className="mt-5 space-y-3">
              {why.map((item) => (
                <li key={item} className="flex items-start gap-3 text-sm text-brand-50">
                  <CheckCircle2 className="mt-0.5 size-5 shrink-0 text-white" aria-hidden="true" />
                  {item}
                </li>
              ))}
            </ul>
          </section>
        </div>

        <div className="space-y-8 lg:col-span-3">
          <section
            id="contact-form"
            aria-labelledby="contact-form-heading"
            className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8"
          >
            <div className="flex items-start gap-4">
              <span className="grid size-11 shrink-0 place-items-center rounded-xl bg-brand-50 text-brand-600">
                <MessageSquare className="size-5" aria-hidden="true" />
              </span>
              <div>
                <h2 id="contact-form-heading" className="text-xl font-bold text-slate-900">
                  {t('form.title')}
                </h2>
                <p className="mt-1 text-sm text-slate-600">{t('form.subtitle')}</p>
              </div>
            </div>
            <ContactFormIsland />
          </section>

          <section aria-labelledby="office-heading" className="rounded-2xl border border-slate-200 bg-slate-50 p-6 sm:p-8">
            <h2 id="office-heading" className="text-xl font-bold text-slate-900">
              {t('office.title')}
            </h2>
            <dl className="mt-6 grid gap-6 sm:grid-cols-2">
              <div className="relative pl-8">
                <dt className="text-sm text-slate-500">
                  <MapPin className="absolute left-0 top-0.5 size-5 text-brand-600" aria-hidden="true" />
                  {t('office.address')}
                </dt>
                <dd className="font-semibold text-slate-900">{t('office.addressValue')}</dd>
              </div>
              <div className="relative pl-8">
                <dt className="text-sm text-slate-500">
                  <Clock className="absolute left-0 top-0.5 size-5 text-brand-600" aria-hidden="true" />
                  {t('office.hours')}
                </dt>
                <dd className="font-semibold text-slate-900">{t('office.weekdays')}</dd>
                <dd className="text-sm text-slate-600">{t('office.saturday')}</dd>
              </div>
            </dl>
            <p className="mt-6 flex items-center gap-2 rounded-xl bg-white px-4 py-3 text-sm font-medium text-emerald-700 ring-1 ring-emerald-200">
              <CheckCircle2 className="size-4 shrink-0" aria-hidden="true" />
              {t('office.response')}
            </p>
          </section>
        </div>
      </div>
    </main>
  );
}

/** Static apart from its islands (islands/island.tsx). */
export const islands = true;
/** What its islands read besides `common`: the rest of the page's text is in its HTML. */
export const islandNs = ['support'];
