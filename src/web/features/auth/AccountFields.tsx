import type { ChangeEventHandler, FocusEventHandler, ReactNode, Ref } from 'react';
import { useTranslation } from '../../i18n';
import { FieldError, Input, Label } from '../../components/ui';
import { StrengthMeter } from './StrengthMeter';

/**
 * How a field is bound to its form: a react-hook-form registration (the account pages) or a value
 * kept in React state (the sign-in dialog's forms, ./AuthForms.tsx).
 */
export interface FieldBinding {
  name: string;
  value?: string;
  onChange: ChangeEventHandler<HTMLInputElement>;
  onBlur?: FocusEventHandler<HTMLInputElement>;
  ref?: Ref<HTMLInputElement>;
}

/** What the account fields take from their form: the field's binding and its accessible state. */
interface FieldProps {
  id: string;
  registration: FieldBinding;
  invalid?: boolean;
  describedBy?: string;
  /** Hints and errors under the input. */
  children?: ReactNode;
}

/** The e-mail field of the account forms (docs/rules.md#accounts). */
export function EmailField({ id, registration, invalid, describedBy, children }: FieldProps) {
  const { t } = useTranslation('auth');
  return (
    <div>
      <Label htmlFor={id}>{t('fields.email')}</Label>
      <Input id={id} type="email" autoComplete="email" {...registration} aria-invalid={invalid} aria-describedby={describedBy} />
      {children}
    </div>
  );
}

/** The account's present password, as typed to sign in or to change it. */
export function CurrentPasswordField({ id, label, registration }: { id: string; label: string; registration: FieldBinding }) {
  return (
    <div>
      <Label htmlFor={id}>{label}</Label>
      <Input id={id} type="password" autoComplete="current-password" {...registration} />
    </div>
  );
}

/** A new password with its strength meter (docs/rules.md#accounts); `label` defaults to "New password". */
export function NewPasswordField({
  id,
  label,
  registration,
  password,
  strengthId,
  invalid,
  describedBy,
  children,
}: FieldProps & { label?: string; password: string; strengthId?: string }) {
  const { t } = useTranslation('auth');
  return (
    <div>
      <Label htmlFor={id}>{label ?? t('fields.newPassword')}</Label>
      <Input id={id} type="password" autoComplete="new-password" {...registration} aria-invalid={invalid} aria-describedby={describedBy} />
      <StrengthMeter id={strengthId} password={password} />
      {children}
    </div>
  );
}

/** The new password typed a second time; `mismatch` shows that the two differ. Its ids are `${idPrefix}-confirm` and `${idPrefix}-mismatch`. */
export function ConfirmPasswordField({ idPrefix, registration, mismatch }: { idPrefix: string; registration: FieldBinding; mismatch: boolean }) {
  const { t } = useTranslation('auth');
  return (
    <div>
      <Label htmlFor={`${idPrefix}-confirm`}>{t('fields.confirmPassword')}</Label>
      <Input
        id={`${idPrefix}-confirm`}
        type="password"
        autoComplete="new-password"
        {...registration}
        aria-invalid={mismatch}
        aria-describedby={`${idPrefix}-mismatch`}
      />
      <FieldError id={`${idPrefix}-mismatch`}>{mismatch ? t('recovery.mismatch') : undefined}</FieldError>
    </div>
  );
}
