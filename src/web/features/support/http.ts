import type { ConsultationInput, ContactMessageInput } from '../../../core/contracts/support';
import { api, ApiError, unwrap } from '../../lib/api';

/** Support's refusals are the app's API errors. */
export { ApiError as SupportApiError };

export const sendConsultation = (input: ConsultationInput) => unwrap((o) => api.consultations.$post({ json: input }, o));
export const sendContactMessage = (input: ContactMessageInput) => unwrap((o) => api.contact.$post({ json: input }, o));
