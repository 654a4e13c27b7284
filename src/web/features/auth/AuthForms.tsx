import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from '../../i18n';
import { Link } from 'react-router';
import { toast } from '../../lib/toast';
import { FULL_NAME_MIN_LENGTH, isAcceptablePassword, passwordStrength, PASSWORD_MIN_SCORE } from '../../../core/password';
import { Button, FieldError, Input, Label } from '../../components/ui';
import { TabList, TabPanel } from '../../components/ui/Tabs';
import { useRefreshMe } from './api';
import type { AuthTab } from './authDialogStore';
import { CurrentPasswordField, EmailField, NewPasswordField, type FieldBinding } from './AccountFields';
import { CodeStep } from './CodeStep';
import { refused, requests } from './requestsLater';

/** Debounce of the sign-up e-mail check (docs/rules.md#accounts). */
export const EMAIL_CHECK_DELAY_MS = 500;
/** How long the sign-up confirmation notice stays (docs/rules.md#accounts). */
export const SIGNUP_NOTICE_MS = 8000;

type EmailState = 'idle' | 'checking' | 'available' | 'taken' | 'error';

const normalizeEmail = (email: string) => email.trim().toLowerCase();

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


/**
 * A form's text fields in React state, each bound to its input by `bind(name)`, and its sending:
 * `onSubmit(canSend, send, failed)` runs `send` when the form may be sent, busy meanwhile, and
 * hands what went wrong to `failed`. The first keystroke loads the forms' requests (./requestsLater.ts).
 */
function useFields<T extends Record<string, string>>(initial: T) {
  const [values, setValues] = useState(initial);
  const [busy, setBusy] = useState(false);
  const set = (name: keyof T, value: string) => setValues((v) => ({ ...v, [name]: value }));
  // The forms' requests load while the visitor types, so that sending does not wait for them.
  const bind = (name: keyof T & string): FieldBinding => ({
    name,
    value: values[name],
    onChange: (e) => {
      set(name, e.target.value);
      requests().catch(() => {});
    },
  });
  const onSubmit = (canSend: boolean, send: () => Promise<void>, failed: (err: unknown) => void) => async (e: FormEvent) => {
    e.preventDefault();
    if (!canSend) return;
    setBusy(true);
    try {
      await send();
    } catch (err) {
      failed(err);
    } finally {
      setBusy(false);
    }
  };
  return { values, set, bind, reset: () => setValues(initial), busy, onSubmit };
}

export function LoginForm({ onDone, onLeave }: { onDone: () => void; onLeave?: () => void }) {
  const { t } = useTranslation('auth');
  const refreshMe = useRefreshMe();
  const id = useId();
  // The `/sign-in/email` body: the e-mail trimmed and in lower case, the password as typed.
  const form = useFields({ email: '', password: '' });
  const { busy } = form;
  const { email, password } = form.values;
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

  const submit = form.onSubmit(
    canSubmit,
    async () => {
      const { signIn } = await requests();
      if ((await signIn(form.values)) === 'code') setCodeStep(true);
      else await signedIn();
    },
    (err) => refused(t, err, 'signIn'),
  );

  if (codeStep) {
    return (
      <CodeStep
        onSignedIn={signedIn}
        onRestart={() => {
          form.set('password', '');
          setCodeStep(false);
        }}
      />
    );
  }

  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="space-y-4">
      <EmailField id={`${id}-email`} registration={form.bind('email')} />
      <CurrentPasswordField id={`${id}-password`} label={t('fields.password')} registration={form.bind('password')} />
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
  const form = useFields({ name: '', email: '', password: '' });
  const { busy } = form;
  const { name: fullName, email, password } = form.values;
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
      requests()
        .then(({ emailAvailability }) => emailAvailability(normalized))
        .then(
          (state) => seq === checkSeq.current && setEmailState(state),
          () => seq === checkSeq.current && setEmailState('error'),
        );
    }, EMAIL_CHECK_DELAY_MS);
    return () => clearTimeout(timer);
  }, [email]);

  const nameOk = fullName.trim().length >= FULL_NAME_MIN_LENGTH;
  const emailOk = normalizeEmail(email).includes('@');
  const passwordOk = isAcceptablePassword(password) && passwordStrength(password).score >= PASSWORD_MIN_SCORE;
  const canSubmit = nameOk && emailOk && passwordOk && emailState !== 'checking' && emailState !== 'taken' && !busy;

  const submit = form.onSubmit(
    canSubmit,
    async () => {
      const { signUp } = await requests();
      const body = await signUp(form.values);
      await refreshMe().catch(() => null);
      toast.success(t('signup.welcome', { name: body.name }), { description: t('signup.notice', { email: body.email }), duration: SIGNUP_NOTICE_MS });
      form.reset();
      onDone();
    },
    // An address taken meanwhile is shown as taken under its field too.
    (err) => void refused(t, err, 'signUp').then((code) => code === 'EMAIL_TAKEN' && setEmailState('taken')),
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
          {...form.bind('name')}
          aria-invalid={fullName !== '' && !nameOk}
          aria-describedby={`${id}-name-error`}
        />
        <FieldError id={`${id}-name-error`}>{fullName !== '' && !nameOk ? t('signup.nameTooShort') : undefined}</FieldError>
      </div>
      <EmailField
        id={`${id}-email`}
        registration={form.bind('email')}
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
        registration={form.bind('password')}
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
