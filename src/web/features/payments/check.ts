import { api, apiClient, timed, type Fetch } from '../../lib/api';

/**
 * The return pages' check (GET /api/payments/:reference): the server asks the gateway once and
 * answers with what it knows. Kept apart from ./api so the error page loads no more than this; the
 * success page asks it on the server, through the API in process (`fetcher`).
 */
export const checkPayment = (reference: string, fetcher?: Fetch) =>
  timed((o) => (fetcher ? apiClient(fetcher) : api).payments[':reference'].$get({ param: { reference: encodeURIComponent(reference) } }, o));

/** The same check for a visitor without a session: only the payment's state, by its reference. */
export const checkPaymentStatus = (reference: string, fetcher?: Fetch) =>
  timed((o) => (fetcher ? apiClient(fetcher) : api).payments[':reference'].status.$get({ param: { reference: encodeURIComponent(reference) } }, o));
