import { useEffect, useId, useRef, useState } from 'react';
import { useForm, type FieldErrors, type FieldValues, type Resolver } from 'react-hook-form';
import { useTranslation } from '../../i18n';
import { Link } from 'react-router';
import { toast } from '../../lib/toast';
import type { z } from 'zod';
import type { AUTH_WRITE_BODIES } from '../../../core/contracts/account';
import { isErrorCode } from '../../../core/errors';
import { FULL_NAME_MIN_LENGTH, isAcceptablePassword, passwordStrength, PASSWORD_MIN_SCORE } from '../../../core/password';
import { Button, FieldError, Input, Label } from '../../components/ui';
import { TabList, TabPanel } from '../../components/ui/Tabs';
import { api, ApiError, unwrap, useRefreshMe } from './api';
import type { AuthTab } from './authDialogStore';
import { signInFailed, signUpFailed } from './messages';
import { CurrentPasswordField, EmailField, NewPasswordField } from './AccountFields';
import { CodeStep } from './CodeStep';

/** Debounce of the sign-up e-mail check (docs/rules.md#accounts). */
export const EMAIL_CHECK_DELAY_MS = 500;
/** How long the sign-up confirmation notice stays (docs/rules.md#accounts). */
export const SIGNUP_NOTICE_MS = 8000;

type EmailState = 'idle' | 'checking' | 'available' | 'taken' | 'error';

const normalizeEmail = (email: string) => email.trim().toLowerCase();

/**
 * A body the account contract refuses in the browser, as the refusal the server would have sent:
 * the contract's messages are error codes (src/core/contracts/account.ts).
 */
function contractRefusal(errors: FieldErrors): ApiError {
  const message = Object.values(errors).find((e) => typeof e?.message === 'string')?.message;
  return new ApiError(isErrorCode(message) ? message : 'VALIDATION_FAILED', 422);
}

/**
 * Login and sign-up tabs, shared by the dialog and the /auth page. `onDone` runs once signed in;
 * `onLeave` when a link takes the visitor elsewhere (the dialog closes).
 */
export function AuthTabs({ tab, onTabChange, onDone, onLeave }: { tab: AuthTab; onTabChange: (tab: AuthTab) => void; onDone: () => void; onLeave?: () => void }) {
  const { t } = useTranslation('auth');
  const idPrefix = useId();
  return (
    <>
      <TabList
        value={tab}
        onChange={onTabChange}
        label={t('tabs.label')}
        idPrefix={idPrefix}
        look="stretch"
        items={[
          { id: 'login', label: t('tabs.login') },
          { id: 'signup', label: t('tabs.signup') },
        ]}
      />
      <TabPanel id={tab} idPrefix={idPrefix} active>
        {tab === 'login' ? <LoginForm onDone={onDone} onLeave={onLeave} /> : <SignupForm onDone={onDone} />}
      </TabPanel>
    </>
  );
}


/** The account contract, with zod and the form's resolver for it: loaded at the form's first check, not with the dialog. */
const accountContract = () => Promise.all([import('@hookform/resolvers/zod'), import('../../../core/contracts/account')]);

/**
 * The check of a form whose body is the account contract's for `path` (`AUTH_WRITE_BODIES`): the
 * contract, and zod with it, are fetched when the form is first checked, on sending or on leaving a
 * field, so the sign-in dialog opens without them.
 */
function contractResolver<P extends '/sign-in/email' | '/sign-up/email'>(path: P): Resolver<z.input<(typeof AUTH_WRITE_BODIES)[P]> & FieldValues, unknown, z.output<(typeof AUTH_WRITE_BODIES)[P]>> {
  return async (values, context, options) => {
    const [{ zodResolver }, { AUTH_WRITE_BODIES: bodies }] = await accountContract();
    return zodResolver(bodies[path])(values, context, options) as never;
  };
}

export function LoginForm({ onDone, onLeave }: { onDone: () => void; onLeave?: () => void }) {
  const { t } = useTranslation('auth');
  const refreshMe = useRefreshMe();
  const id = useId();
  // The `/sign-in/email` body: the e-mail trimmed and in lower case, the password as typed.
  const form = useForm({ resolver: contractResolver('/sign-in/email'), defaultValues: { email: '', password: '' } });
  const busy = form.formState.isSubmitting;
  const [email, password] = form.watch(['email', 'password']);
  const canSubmit = email.trim() !== '' && password !== '' && !busy;
  // After the password, an account with a second factor is asked for a code (docs/rules.md#second-factor).
  const [codeStep, setCodeStep] = useState(false);

  const signedIn = async () => {
    form.reset();
    setCodeStep(false);
    const me = await refreshMe();
    toast.success(t('login.success', { name: me?.fullName || me?.email || '' }));
    onDone();
  };

  const submit = form.handleSubmit(
    async (body) => {
      if (!canSubmit) return;
      try {
        const answer: unknown = await unwrap((o) => api.auth['sign-in'].email.$post({ json: body }, o));
        const [, { isTwoFactorChallenge }] = await accountContract();
        if (isTwoFactorChallenge(answer)) {
          setCodeStep(true);
          return;
        }
        await signedIn();
      } catch (err) {
        signInFailed(t, err);
      }
    },
    (errors) => {
      if (canSubmit) signInFailed(t, contractRefusal(errors));
    },
  );

  if (codeStep) {
    return (
      <CodeStep
        onSignedIn={signedIn}
        onRestart={() => {
          form.setValue('password', '');
          setCodeStep(false);
        }}
      />
    );
  }

  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="space-y-4">
      <EmailField id={`${id}-email`} registration={form.register('email')} />
      <CurrentPasswordField id={`${id}-password`} label={t('fields.password')} registration={form.register('password')} />
      <Button type="submit" className="w-full" disabled={!canSubmit}>
        {busy ? t('login.submitting') : t('login.submit')}
      </Button>
      <p className="text-center text-sm">
        <Link to="/reset-password" onClick={onLeave} className="font-medium text-brand-700 hover:underline">
          {t('login.forgot')}
        </Link>
      </p>
    </form>
  );
}

export function SignupForm({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation('auth');
  const refreshMe = useRefreshMe();
  const id = useId();
  // The `/sign-up/email` body: full name and e-mail trimmed (the e-mail in lower case), the password as typed.
  const form = useForm({ resolver: contractResolver('/sign-up/email'), defaultValues: { name: '', email: '', password: '' } });
  const busy = form.formState.isSubmitting;
  const [fullName, email, password] = form.watch(['name', 'email', 'password']);
  const [emailState, setEmailState] = useState<EmailState>('idle');
  const checkSeq = useRef(0);

  // Checks the address 500 ms after typing stops, only once it has an @.
  useEffect(() => {
    const normalized = normalizeEmail(email);
    const seq = ++checkSeq.current;
    if (!normalized.includes('@')) {
      setEmailState('idle');
      return;
    }
    setEmailState('checking');
    const timer = setTimeout(() => {
      unwrap((o) => api['auth-extra']['email-available'].$post({ json: { email: normalized } }, o))
        .then((r) => seq === checkSeq.current && setEmailState(r.available ? 'available' : 'taken'))
        .catch((err: unknown) => {
          if (seq !== checkSeq.current) return;
          // A malformed address is not a failed check: the form shows it as invalid.
          setEmailState(err instanceof ApiError && err.code === 'EMAIL_INVALID' ? 'idle' : 'error');
        });
    }, EMAIL_CHECK_DELAY_MS);
    return () => clearTimeout(timer);
  }, [email]);

  const nameOk = fullName.trim().length >= FULL_NAME_MIN_LENGTH;
  const emailOk = normalizeEmail(email).includes('@');
  const passwordOk = isAcceptablePassword(password) && passwordStrength(password).score >= PASSWORD_MIN_SCORE;
  const canSubmit = nameOk && emailOk && passwordOk && emailState !== 'checking' && emailState !== 'taken' && !busy;

  const submit = form.handleSubmit(
    async (body) => {
      if (!canSubmit) return;
      try {
        // Re-checked at submit: the address may have been taken meanwhile (the contract checked the password).
        const { available } = await unwrap((o) => api['auth-extra']['email-available'].$post({ json: { email: body.email } }, o));
        if (!available) {
          setEmailState('taken');
          throw new ApiError('EMAIL_TAKEN', 409);
        }
        await unwrap((o) => api.auth['sign-up'].email.$post({ json: body }, o));
        await refreshMe().catch(() => null);
        toast.success(t('signup.welcome', { name: body.name }), { description: t('signup.notice', { email: body.email }), duration: SIGNUP_NOTICE_MS });
        form.reset();
        onDone();
      } catch (err) {
        signUpFailed(t, err);
      }
    },
    (errors) => {
      if (canSubmit) signUpFailed(t, contractRefusal(errors));
    },
  );

  const emailHint =
    emailState === 'checking'
      ? t('signup.emailChecking')
      : emailState === 'available'
        ? t('signup.emailAvailable')
        : emailState === 'taken'
          ? t('common:errors.EMAIL_TAKEN')
          : emailState === 'error'
            ? t('signup.emailCheckError')
            : undefined;

  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="space-y-4">
      <div>
        <Label htmlFor={`${id}-name`}>{t('fields.fullName')}</Label>
        <Input
          id={`${id}-name`}
          autoComplete="name"
          {...form.register('name')}
          aria-invalid={fullName !== '' && !nameOk}
          aria-describedby={`${id}-name-error`}
        />
        <FieldError id={`${id}-name-error`}>{fullName !== '' && !nameOk ? t('signup.nameTooShort') : undefined}</FieldError>
      </div>
      <EmailField
        id={`${id}-email`}
        registration={form.register('email')}
        invalid={emailState === 'taken' || (email.trim() !== '' && !emailOk)}
        describedBy={`${id}-email-hint`}
      >
        <p
          id={`${id}-email-hint`}
          data-testid="email-state"
          data-state={emailState}
          aria-live="polite"
          className={`mt-1.5 min-h-5 text-sm ${emailState === 'taken' || emailState === 'error' ? 'text-rose-600' : emailState === 'available' ? 'text-emerald-700' : 'text-slate-500'}`}
        >
          {email.trim() !== '' && !emailOk ? t('common:errors.EMAIL_INVALID') : emailHint}
        </p>
      </EmailField>
      <NewPasswordField
        id={`${id}-password`}
        label={t('fields.password')}
        registration={form.register('password')}
        password={password}
        strengthId={`${id}-strength`}
        invalid={password.length >= 3 && !passwordOk}
        describedBy={`${id}-strength ${id}-password-error`}
      >
        {/* The meter above names the level ("Zəif şifrə"); what is missing is the rule. */}
        <FieldError id={`${id}-password-error`}>{password.length >= 3 && !passwordOk ? t('signup.passwordRule') : undefined}</FieldError>
      </NewPasswordField>
      <Button type="submit" className="w-full" disabled={!canSubmit}>
        {busy ? t('signup.submitting') : t('signup.submit')}
      </Button>
    </form>
  );
}
