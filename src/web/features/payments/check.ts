import type { PaymentStatusView, PaymentView } from '../../../core/contracts/payments';
import { getJson } from '../dashboard/http';

/**
 * The return page's check (GET /api/payments/:reference): the server asks the gateway once and
 * answers with what it knows. Kept apart from ./api so the return page loads no more than this.
 */
export const checkPayment = (reference: string) => getJson<PaymentView>(`/api/payments/${encodeURIComponent(reference)}`);

/** The same check for a visitor without a session: only the payment's state, by its reference. */
export const checkPaymentStatus = (reference: string) => getJson<PaymentStatusView>(`/api/payments/${encodeURIComponent(reference)}/status`);
