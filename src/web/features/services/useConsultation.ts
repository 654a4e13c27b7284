import { useConsultationRequest } from '../support';

/**
 * What a consultation button does: a guest gets the sign-in dialog, a signed-in customer the
 * consultation request form, with the button's service chosen when it is one of the topics.
 */
export function useConsultation(): (serviceName: string) => void {
  return useConsultationRequest();
}
