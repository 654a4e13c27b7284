import type { FormEvent, ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from '../../i18n';
import { Button } from '../../components/ui';

/**
 * The frame of the password pages (/reset-password, /password-recovery): the title, an optional intro,
 * the form with its fields and submit button, the notice once it is done, and the way back to the login.
 */
export function AccountPageFrame({
  title,
  intro,
  onSubmit,
  submitLabel,
  canSubmit,
  done,
  children,
}: {
  title: string;
  intro?: string;
  onSubmit: (e: FormEvent<HTMLFormElement>) => void;
  submitLabel: string;
  canSubmit: boolean;
  /** The notice shown once the form has done its work. */
  done?: string;
  children: ReactNode;
}) {
  const { t } = useTranslation('auth');
  return (
    <main id="main" className="mx-auto max-w-md px-4 py-12">
      <h1 className="text-2xl font-bold text-slate-900">{title}</h1>
      {intro ? <p className="mt-2 text-sm text-slate-600">{intro}</p> : null}
      <form onSubmit={onSubmit} noValidate className="mt-6 space-y-4 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
        {children}
        <Button type="submit" className="w-full" disabled={!canSubmit}>
          {submitLabel}
        </Button>
        {done ? (
          <p role="status" className="rounded-xl bg-emerald-50 p-3 text-sm text-emerald-800">
            {done}
          </p>
        ) : null}
      </form>
      <p className="mt-4 text-center text-sm">
        <Link to="/auth" className="font-medium text-brand-700 hover:underline">
          {t('recovery.backToLogin')}
        </Link>
      </p>
    </main>
  );
}
