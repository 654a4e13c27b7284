import { useTranslation } from '../../i18n';
import type { PageMeta } from '../../app/page';

export type LegalKind = 'terms' | 'privacy';

interface LegalText {
  title: string;
  description: string;
  updated: string;
  intro: string;
  sections: { heading: string; paragraphs: string[] }[];
}

export const legalMeta =
  (kind: LegalKind): PageMeta =>
  ({ t, site }) => ({ title: `${t(`legal:${kind}.title`)} · ${site.site_name}`, description: t(`legal:${kind}.description`) });

const slug = (i: number) => `section-${i + 1}`;

/** A legal text from the `legal` namespace: title, date, introduction, contents and sections. */
export function LegalDocument({ kind }: { kind: LegalKind }) {
  const { t } = useTranslation('legal');
  const doc = t(kind, { returnObjects: true }) as LegalText;
  return (
    <main id="main" className="bg-slate-50">
      <div className="border-b border-slate-200 bg-white">
        <div className="mx-auto max-w-3xl px-4 py-12 sm:px-6 sm:py-16">
          <h1 className="text-3xl font-extrabold tracking-tight text-slate-900 sm:text-4xl">{doc.title}</h1>
          <p className="mt-3 text-sm text-slate-500">{doc.updated}</p>
          <p className="mt-6 text-lg leading-relaxed text-slate-700">{doc.intro}</p>
        </div>
      </div>
      <div className="mx-auto max-w-3xl px-4 py-12 sm:px-6">
        <nav aria-labelledby="toc-heading" className="rounded-2xl border border-slate-200 bg-white p-6">
          <h2 id="toc-heading" className="text-sm font-semibold uppercase tracking-wider text-slate-500">
            {t('common:legalContents')}
          </h2>
          <ol className="mt-4 grid gap-2 text-sm sm:grid-cols-2">
            {doc.sections.map((s, i) => (
              <li key={s.heading}>
                <a href={`#${slug(i)}`} className="rounded text-brand-700 hover:underline">
                  {s.heading}
                </a>
              </li>
            ))}
          </ol>
        </nav>
        <div className="mt-10 space-y-10">
          {doc.sections.map((s, i) => (
            <section key={s.heading} id={slug(i)} aria-labelledby={`${slug(i)}-h`} className="scroll-mt-24">
              <h2 id={`${slug(i)}-h`} className="text-xl font-bold text-slate-900">
                {s.heading}
              </h2>
              <div className="mt-4 space-y-4 leading-relaxed text-slate-700">
                {s.paragraphs.map((p) => (
                  <p key={p}>{p}</p>
                ))}
              </div>
            </section>
          ))}
        </div>
      </div>
    </main>
  );
}
