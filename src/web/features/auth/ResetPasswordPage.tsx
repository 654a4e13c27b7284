import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from '../../i18n';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { AUTH_WRITE_BODIES } from '../../../core/contracts/account';
import { emailSchema } from '../../../core/password';
import { Button, FieldError } from '../../components/ui';
import type { PageMeta } from '../../app/page';
import { EmailField } from './AccountFields';
import { api, ApiError, unwrap } from './api';
import { errorText } from '../../lib/errorText';

export const ns = ['auth'];
export const meta: PageMeta = ({ t, site }) => ({ title: `${t('auth:reset.title')} · ${site.site_name}` });

/** How long the link-sent notice stays (docs/rules.md#accounts). */
const SENT_NOTICE_MS = 7000;

/** /reset-password: asks for the e-mail and sends the reset link; the answer never reveals whether the account exists. */
export default function ResetPasswordPage() {
  const { t } = useTranslation('auth');
  const id = useId();
  // The `/request-password-reset` body: the e-mail, trimmed and in lower case.
  const form = useForm({ resolver: zodResolver(AUTH_WRITE_BODIES['/request-password-reset']), defaultValues: { email: '' } });
  const busy = form.formState.isSubmitting;
  const [sent, setSent] = useState(false);
  const email = form.watch('email');
  const valid = emailSchema.safeParse(email).success;

  const submit = form.handleSubmit(async (body) => {
    try {
      await unwrap((o) => api.auth['request-password-reset'].$post({ json: body }, o));
      setSent(true);
      toast.success(t('reset.sentTitle'), { description: t('reset.sent'), duration: SENT_NOTICE_MS });
    } catch (err) {
      const description =
        err instanceof ApiError && err.code === 'RATE_LIMITED' ? errorText(t, err, 'auth') : t('reset.failed');
      toast.error(t('errors.unexpectedTitle'), { description });
    }
  });

  return (
    <main id="main" className="mx-auto max-w-md px-4 py-12">
      <h1 className="text-2xl font-bold text-slate-900">{t('reset.title')}</h1>
      <p className="mt-2 text-sm text-slate-600">{t('reset.intro')}</p>
      <form onSubmit={(e) => void submit(e)} noValidate className="mt-6 space-y-4 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
        <EmailField id={`${id}-email`} registration={form.register('email')} invalid={email.trim() !== '' && !valid} describedBy={`${id}-error`}>
          <FieldError id={`${id}-error`}>{email.trim() !== '' && !valid ? t('common:errors.EMAIL_INVALID') : undefined}</FieldError>
        </EmailField>
        <Button type="submit" className="w-full" disabled={!valid || busy}>
          {busy ? t('reset.sending') : t('reset.submit')}
        </Button>
        {sent ? (
          <p role="status" className="rounded-xl bg-emerald-50 p-3 text-sm text-emerald-800">
            {t('reset.sent')}
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
