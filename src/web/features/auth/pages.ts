/**
 * The account fields (e-mail, passwords with the strength meter), for the dashboard's settings,
 * which load on demand (docs/ARCHITECTURE.md#layers). They carry the password rules (zod), which
 * the header and the admin gate have no use for.
 */
export { ConfirmPasswordField, CurrentPasswordField, NewPasswordField } from './AccountFields';
/** The second factor and the recent sign-ins, for the account page, the admin gate and the team's user page. */
export { OwnSignIns, TwoFactorSettings } from './TwoFactorSettings';
export { SignInsList } from './SignInsList';
