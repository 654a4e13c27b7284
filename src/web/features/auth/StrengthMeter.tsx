import { useTranslation } from '../../i18n';
import { passwordStrength, showStrengthMeter } from '../../../core/password';

const COLORS = ['bg-rose-500', 'bg-rose-500', 'bg-orange-500', 'bg-amber-500', 'bg-lime-500', 'bg-emerald-600'];

/**
 * Five-step strength bar with its label, which names the password's level ("Zəif şifrə"); shown
 * from 3 characters on (docs/rules.md#accounts). Screen readers hear the title before it.
 */
export function StrengthMeter({ password, id }: { password: string; id?: string }) {
  const { t } = useTranslation('auth');
  if (!showStrengthMeter(password)) return null;
  const { score, label } = passwordStrength(password);
  return (
    <div id={id} className="mt-2" data-testid="strength-meter" data-score={score}>
      <div className="flex gap-1" aria-hidden="true">
        {[1, 2, 3, 4, 5].map((step) => (
          <span key={step} className={`h-1.5 flex-1 rounded-full ${step <= score ? COLORS[score] : 'bg-slate-200'}`} />
        ))}
      </div>
      <p className="mt-1 text-xs text-slate-600" aria-live="polite">
        <span className="sr-only">{t('strength.title')}: </span>
        <strong>{t(`strength.${label}`)}</strong>
      </p>
    </div>
  );
}
