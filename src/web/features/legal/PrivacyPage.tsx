import { LegalDocument, legalMeta } from './LegalDocument';

export const ns = ['legal'];
export const meta = legalMeta('privacy');

export default function PrivacyPage() {
  return <LegalDocument kind="privacy" />;
}
