import { Headset, Mail, MessagesSquare } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import { cn } from '../../components/ui/cn';

const SECTIONS = [
  { key: 'support', path: 'support', icon: Headset },
  { key: 'contact', path: 'contact-messages', icon: Mail },
  { key: 'consultations', path: 'consultations', icon: MessagesSquare },
] as const;

/**
 * The frame of the team's conversation pages: the page title and links between the support
 * inbox, contact messages and consultation requests. `base` is `/admin` or `/{lang}/admin`.
 */
export function AdminFrame({ base, title, subtitle, actions, children }: { base: string; title: string; subtitle: string; actions?: ReactNode; children: ReactNode }) {
  const { t } = useTranslation('admin-support');
  return (
    <main id="main" className="min-h-screen bg-slate-50">
      <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6 lg:px-8">
        <nav aria-label={t('nav.label')} className="-mx-1 mb-6 flex gap-1 overflow-x-auto pb-1">
          {SECTIONS.map(({ key, path, icon: Icon }) => (
            <NavLink
              key={key}
              to={`${base}/${path}`}
              className={({ isActive }) =>
                cn(
                  'inline-flex shrink-0 items-center gap-2 rounded-xl px-3.5 py-2 text-sm font-semibold transition-colors',
                  isActive ? 'bg-brand-600 text-white shadow-sm' : 'bg-white text-slate-700 ring-1 ring-slate-200 hover:text-brand-700 hover:ring-brand-500',
                )
              }
            >
              <Icon className="size-4" aria-hidden="true" />
              {t(`nav.${key}`)}
            </NavLink>
          ))}
        </nav>
        <div className="mb-6 flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
          <div>
            <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{title}</h1>
            <p className="mt-1 text-sm text-slate-600">{subtitle}</p>
          </div>
          {actions}
        </div>
        {children}
      </div>
    </main>
  );
}

/** `/{lang}/admin` when the page has a language segment, `/admin` otherwise. */
export const adminBase = (pathname: string) => {
  const m = /^\/(az|tr|en)\/admin/.exec(pathname);
  return m ? `/${m[1]}/admin` : '/admin';
};

export const selectClass =
  'block w-full rounded-xl border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus-visible:border-brand-500 focus-visible:outline-2 focus-visible:outline-offset-0';

export function LoadError({ text, retry, onRetry }: { text: string; retry: string; onRetry: () => void }) {
  return (
    <div role="alert" className="flex flex-col items-center gap-3 rounded-2xl border border-rose-200 bg-rose-50 p-8 text-center">
      <p className="text-sm font-medium text-rose-700">{text}</p>
      <button type="button" onClick={onRetry} className="rounded-lg bg-white px-3 py-1.5 text-sm font-semibold text-slate-800 ring-1 ring-slate-300 hover:ring-brand-500">
        {retry}
      </button>
    </div>
  );
}
