import { useLiveEvents } from '../../lib/liveEvents';
import { useRefreshMe } from '../auth';
import { useReloadCatalog } from '../catalog';
import { paymentKeys } from '../payments';
import { tabsQueries } from './tabsQueries';

/**
 * ./siteUpdates.ts as a page of islands builds it: what app/LiveSiteUpdates.tsx does for the app's
 * pages, for the dashboard. The catalogue (prices, fees, names) is read again on a catalogue or
 * settings change and after the stream was down, so a price shown is the price charged; a change of
 * the customer's discount reads who they are (which carries it) again; a settings change reads the
 * top-up's methods again. When the server finds the session ended, the page is loaded again, and
 * the server sends a signed-out visitor to sign in.
 */
export function useSiteUpdates(): void {
  const reloadCatalog = useReloadCatalog();
  const refreshMe = useRefreshMe();
  useLiveEvents(
    (event) => {
      if (event.type === 'pricing') void refreshMe().catch(() => {});
      if (event.type !== 'settings' && event.type !== 'catalog') return;
      void reloadCatalog();
      if (event.type === 'settings') tabsQueries.invalidate(paymentKeys.methods());
    },
    { onReconnect: () => void reloadCatalog(), onSessionEnded: () => window.location.reload() },
  );
}
