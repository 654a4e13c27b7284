import { useId, useState } from 'react';
import { useTranslation } from '../../i18n';
import { recoveryCode, totpCode } from '../../../core/secondFactor';
import { Button, Input, Label } from '../../components/ui';
import { refused, requests } from './requestsLater';

/**
 * The sign-in's second step, after the password of an account with a second factor
 * (docs/rules.md#second-factor): the 6-digit code from the authenticator app, or one of the
 * recovery codes. A step that has ended (10 minutes, or 5 wrong codes) starts again from the password.
 */
export function CodeStep({ onSignedIn, onRestart }: { onSignedIn: () => Promise<void>; onRestart: () => void }) {
  const { t } = useTranslation('auth');
  const id = useId();
  const [recovery, setRecovery] = useState(false);
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const typed = recovery ? recoveryCode(code) : totpCode(code);

  const submit = async () => {
    if (typed === null || busy) return;
    setBusy(true);
    try {
      await (await requests()).verifyCode(recovery, typed);
      await onSignedIn();
    } catch (err) {
      // An ended step (10 minutes, or 5 wrong codes) starts again from the password.
      if ((await refused(t, err, 'signIn')) === 'TWO_FACTOR_EXPIRED') onRestart();
      setCode('');
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
      noValidate
      className="space-y-4"
      data-testid="two-factor-step"
    >
      <div>
        <h3 className="text-base font-semibold text-slate-900">{t('twoFactor.codeTitle')}</h3>
        <p className="mt-1 text-sm text-slate-600">{recovery ? t('twoFactor.recoveryStep') : t('twoFactor.codeText')}</p>
      </div>
      <div>
        <Label htmlFor={`${id}-code`}>{recovery ? t('twoFactor.recoveryLabel') : t('twoFactor.codeLabel')}</Label>
        <Input
          id={`${id}-code`}
          value={code}
          onChange={(e) => setCode(e.target.value)}
          autoComplete="one-time-code"
          inputMode={recovery ? 'text' : 'numeric'}
          autoFocus
          maxLength={recovery ? 16 : 9}
          spellCheck={false}
        />
      </div>
      <Button type="submit" className="w-full" disabled={typed === null || busy}>
        {busy ? t('twoFactor.verifying') : t('twoFactor.verify')}
      </Button>
      <div className="flex flex-wrap justify-between gap-2 text-sm">
        <button
          type="button"
          className="font-medium text-brand-700 hover:underline"
          onClick={() => {
            setRecovery(!recovery);
            setCode('');
          }}
        >
          {recovery ? t('twoFactor.useApp') : t('twoFactor.useRecovery')}
        </button>
        <button type="button" className="text-slate-600 hover:underline" onClick={onRestart}>
          {t('twoFactor.back')}
        </button>
      </div>
    </form>
  );
}
