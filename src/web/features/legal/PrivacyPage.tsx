import { LegalDocument, legalMeta } from './LegalDocument';

export const ns = ['legal'];
export const meta = legalMeta('privacy');

export default function PrivacyPage() {
  return <LegalDocument kind="privacy" />;
}

/** Static apart from its islands (islands/island.tsx). */
export const islands = true;
