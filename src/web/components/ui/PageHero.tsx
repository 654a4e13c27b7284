import type { ReactNode } from 'react';

/** The gradient band at the top of an inner page, holding its single <h1>. */
export function PageHero({ title, subtitle, eyebrow, children }: { title: string; subtitle?: string; eyebrow?: ReactNode; children?: ReactNode }) {
  return (
    <section className="relative isolate overflow-hidden bg-gradient-to-br from-brand-600 via-brand-500 to-violet-600 text-white">
      <div aria-hidden="true" className="absolute -right-20 -top-28 -z-10 size-80 rounded-full bg-white/10 blur-3xl" />
      <div className="mx-auto max-w-7xl px-4 py-16 sm:px-6 sm:py-20 lg:px-8">
        <div className="max-w-3xl">
          {eyebrow ? <div className="mb-5">{eyebrow}</div> : null}
          <h1 className="text-4xl font-extrabold tracking-tight text-balance sm:text-5xl">{title}</h1>
          {subtitle ? <p className="mt-5 text-lg leading-relaxed text-brand-50/90">{subtitle}</p> : null}
          {children}
        </div>
      </div>
    </section>
  );
}
