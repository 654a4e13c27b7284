import { LegalDocument, legalMeta } from './LegalDocument';

export const ns = ['legal'];
export const meta = legalMeta('terms');

export default function TermsPage() {
  return <LegalDocument kind="terms" />;
}

/** Static apart from its islands (islands/island.tsx). */
export const islands = true;
