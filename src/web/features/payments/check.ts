import { api } from '../../lib/api';
import { timed } from '../../lib/timed';

/**
 * The return page's check (GET /api/payments/:reference): the server asks the gateway once and
 * answers with what it knows. Kept apart from ./api so the return page loads no more than this.
 */
export const checkPayment = (reference: string) => timed((o) => api.payments[':reference'].$get({ param: { reference: encodeURIComponent(reference) } }, o));

/** The same check for a visitor without a session: only the payment's state, by its reference. */
export const checkPaymentStatus = (reference: string) =>
  timed((o) => api.payments[':reference'].status.$get({ param: { reference: encodeURIComponent(reference) } }, o));
