import type { ConsultationInput, ContactMessageInput } from '../../../core/contracts/support';
import { ApiError, request } from '../../lib/api';

/** Support's refusals are the app's API errors. */
export { ApiError as SupportApiError, request };

export const sendConsultation = (input: ConsultationInput) => request<{ consultation: { id: string } }>('POST', '/api/consultations', input);
export const sendContactMessage = (input: ContactMessageInput) => request<{ ok: true }>('POST', '/api/contact', input);
