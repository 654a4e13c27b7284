import { lazy, Suspense, useEffect, useState, type ComponentType } from 'react';
import type { I18n } from '../../i18n';
import { useTranslation } from '../../i18n';
import { DEFAULT_LANGUAGE, isLanguage } from '../../../core/i18n';
import { loadNamespaces } from '../../i18n';
import { useMe } from '../auth';
import { consultationDialog, useConsultationState } from './consultation';

let dialogModule: Promise<{ default: ComponentType }> | null = null;
/** The dialog's code (Radix, the form, the schema) and its text, fetched on first open. */
function loadDialog(i18n: I18n): Promise<{ default: ComponentType }> {
  const lang = isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE;
  dialogModule ??= Promise.all([import('./ConsultationDialog'), loadNamespaces(i18n, lang, ['support'])]).then(([mod]) => mod);
  return dialogModule;
}

/** Mounted once in the public layout: shows the consultation dialog when a page asks for it. */
export function ConsultationHost() {
  const { i18n } = useTranslation();
  const { open, pending } = useConsultationState();
  const signedIn = !!useMe().data;
  const [wanted, setWanted] = useState(false);
  const [Dialog] = useState(() => lazy(() => loadDialog(i18n)));

  useEffect(() => {
    if (open) setWanted(true);
  }, [open]);

  // A guest who asked for a consultation and then signed in gets the dialog straight away.
  useEffect(() => {
    if (signedIn && pending) consultationDialog.resume();
  }, [signedIn, pending]);

  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <Dialog />
    </Suspense>
  );
}
