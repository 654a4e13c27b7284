import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from '../i18n';
import { Outlet, useMatches, useParams } from 'react-router';
import { isLanguage } from '../../core/i18n';
import { useAnyModalOpen } from '../lib/openModals';
import { LiveSiteUpdates } from './LiveSiteUpdates';
import type { PageHandle } from './page';
import { useSite } from './site';

// The notification area loads after hydration so its code stays out of the first download;
// toasts raised before then appear once it has mounted.
const Toaster = lazy(() => import('sonner').then((m) => ({ default: m.Toaster })));

/** Outermost layout: document language and title follow the current page; notifications top right. */
export function RootLayout() {
  const { t, i18n } = useTranslation();
  const params = useParams();
  const matches = useMatches();
  const site = useSite();

  useEffect(() => {
    // Journeys and scripts wait for this marker before interacting.
    document.documentElement.dataset.hydrated = 'true';
  }, []);

  useEffect(() => {
    const lang = isLanguage(params.lang) ? params.lang : i18n.language;
    // Setting it, even to the value it has, makes the browser restyle the whole page (:lang).
    if (document.documentElement.lang !== lang) document.documentElement.lang = lang;
    const leaf = [...matches].reverse().find((m) => (m.handle as PageHandle | undefined)?.meta);
    const meta = (leaf?.handle as PageHandle | undefined)?.meta;
    if (meta && isLanguage(lang)) document.title = meta({ t, lang, data: leaf?.loaderData, site }).title;
  }, [matches, params.lang, i18n.language, t, site]);

  return (
    <>
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2">
        {t('skipToContent')}
      </a>
      <Outlet />
      <Notifications />
      <LiveSiteUpdates />
    </>
  );
}

/**
 * The notification area, mounted once the page has hydrated. Its own state, so mounting it
 * re-renders only this, not the whole page under the root layout.
 */
function Notifications() {
  const [mounted, setMounted] = useState(false);
  const modalOpen = useAnyModalOpen();
  useEffect(() => setMounted(true), []);
  if (!mounted) return null;
  return (
    <Suspense fallback={null}>
      {/* Below the 64 px header, so a notification never covers its buttons; at the bottom while a
          dialog is open, so it never covers the dialog's title and close button. */}
      <Toaster
        position={modalOpen ? 'bottom-center' : 'top-right'}
        offset={modalOpen ? { bottom: 16 } : { top: 76 }}
        mobileOffset={modalOpen ? { bottom: 12 } : { top: 72 }}
        duration={5000}
        richColors
        closeButton
      />
    </Suspense>
  );
}
