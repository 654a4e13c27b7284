import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from '../../i18n';
import { toast } from '../../lib/toast';
import { AUTH_WRITE_BODIES } from '../../../core/contracts/account';
import { emailSchema } from '../../../core/contracts/account';
import { FieldError } from '../../components/ui';
import type { PageMeta } from '../../app/page';
import { EmailField } from './AccountFields';
import { AccountPageFrame } from './AccountPageFrame';
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
    <AccountPageFrame
      title={t('reset.title')}
      intro={t('reset.intro')}
      onSubmit={(e) => void submit(e)}
      submitLabel={busy ? t('reset.sending') : t('reset.submit')}
      canSubmit={valid && !busy}
      done={sent ? t('reset.sent') : undefined}
    >
      <EmailField id={`${id}-email`} registration={form.register('email')} invalid={email.trim() !== '' && !valid} describedBy={`${id}-error`}>
        <FieldError id={`${id}-error`}>{email.trim() !== '' && !valid ? t('common:errors.EMAIL_INVALID') : undefined}</FieldError>
      </EmailField>
    </AccountPageFrame>
  );
}
