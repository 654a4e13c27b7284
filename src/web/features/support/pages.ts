/**
 * The contact form, for the contact page, which loads on demand (docs/ARCHITECTURE.md#layers).
 * Kept apart from the tickets (./tabs.ts): one entry would put both in each page's chunks.
 */
export { ContactForm } from './ContactForm';
