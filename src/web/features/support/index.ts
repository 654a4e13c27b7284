/**
 * The consultation, as the public frame and the service pages ask for it (docs/ARCHITECTURE.md#layers).
 * The frame loads on every page, so this entry stays light: the dialog loads when first opened,
 * and the contact form and the tickets are in ./pages.ts.
 */
export { useConsultationRequest } from './consultation';
export { ConsultationHost } from './ConsultationHost';
