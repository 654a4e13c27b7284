import { useCallback, useSyncExternalStore } from 'react';
import { useTranslation } from '../../i18n';
import { DEFAULT_LANGUAGE, isLanguage } from '../../../core/i18n';
import { loadNamespaces } from '../../i18n';
import { authDialog, useEnsureMe, useMe } from '../auth';
import { toast } from '../../lib/toast';
import { askIsland } from '../../islands/ask';

/**
 * Who asked for the consultation dialog and for which service. Kept tiny and free of UI code:
 * public pages import it, and the dialog itself loads only when first opened.
 */
interface State {
  open: boolean;
  /** A service value or a displayed service name, to preselect the topic when it matches. */
  hint: string | null;
  /** A guest asked; the dialog opens once they have signed in. */
  pending: boolean;
}

let state: State = { open: false, hint: null, pending: false };
const listeners = new Set<() => void>();
const set = (next: State) => {
  state = next;
  for (const l of listeners) l();
  // On a public page the dialog's host is an island that waits for this (the layout's ConsultationHost).
  if (next.open || next.pending) askIsland('ConsultationHost');
};
const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};
const SERVER_STATE: State = { open: false, hint: null, pending: false };

export const consultationDialog = {
  open: (hint: string | null = null) => set({ open: true, hint, pending: false }),
  close: () => set({ ...state, open: false, pending: false }),
  remember: (hint: string | null) => set({ open: false, hint, pending: true }),
  resume: () => state.pending && set({ ...state, open: true, pending: false }),
};

export function useConsultationState(): State {
  return useSyncExternalStore(subscribe, () => state, () => SERVER_STATE);
}

/**
 * What a consultation button does (docs/rules.md#support): a signed-in customer gets the consultation
 * dialog; a guest is told to sign in and gets the sign-in dialog, and the consultation dialog
 * follows once they have signed in.
 */
export function useConsultationRequest(): (hint?: string) => void {
  const { i18n } = useTranslation();
  const me = useMe();
  const ensureMe = useEnsureMe();
  const known = me.data;
  return useCallback(
    async (hint?: string) => {
      // A click before the session is known waits for it rather than treating the visitor as a guest.
      const user = known !== undefined ? known : await ensureMe().catch(() => null);
      if (user) return consultationDialog.open(hint ?? null);
      consultationDialog.remember(hint ?? null);
      authDialog.open('login');
      const lang = isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE;
      // The notice's code and text load on demand: this module sits in every public page.
      void loadNamespaces(i18n, lang, ['support']).then(() => toast.info(i18n.t('support:consultation.needsSignIn')));
    },
    [known, ensureMe, i18n],
  );
}
