import { useEffect } from 'react';
import { useTranslation } from '../i18n';
import { Outlet, useMatches, useParams } from 'react-router';
import { isLanguage } from '../../core/i18n';
import { island } from '../islands/island';
import { markHydrated, type ControlSnapshot } from '../islands/replay';
import { LiveSiteUpdates } from './LiveSiteUpdates';
import { Notifications } from './Notifications';
import type { PageHandle } from './page';
import { useSite } from './site';

// Woken with the first notice (lib/toast.ts).
const NotificationsIsland = island('Notifications', Notifications, { wake: 'asked' });

/** What the visitor typed before the app hydrated, taken by entry-client just before it starts. */
let appControls: ControlSnapshot[] = [];
export const setAppControls = (snapshot: ControlSnapshot[]) => {
  appControls = snapshot;
};

/** Outermost layout: document language and title follow the current page; notifications top right. */
export function RootLayout() {
  const { t, i18n } = useTranslation();
  const params = useParams();
  const matches = useMatches();
  const site = useSite();

  useEffect(() => {
    // The app is live: what was typed and clicked before now reaches it (islands/replay.ts).
    const root = document.getElementById('root');
    if (root) void markHydrated(root, appControls);
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
      <NotificationsIsland />
      <LiveSiteUpdates />
    </>
  );
}
