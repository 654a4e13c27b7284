/**
 * The password strength meter, for the dashboard's settings, which load on demand
 * (docs/ARCHITECTURE.md#layers). It carries the password rules (zod), which the header and the
 * admin gate have no use for.
 */
export { StrengthMeter } from './StrengthMeter';
