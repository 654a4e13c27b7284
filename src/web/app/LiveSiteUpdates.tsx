import { useQueryClient } from '@tanstack/react-query';
import { useRevalidator } from 'react-router';
import { useLiveEvents } from '../lib/liveEvents';
import { useMe } from '../features/auth/api';
import { catalogKeys } from '../features/catalog/api';

/**
 * Applies settings and catalogue changes to the open page of a signed-in visitor as they happen:
 * the catalogue (prices, fees, names) is read again, and so are the site settings the root route
 * loaded. A price shown is then the price charged; the order request still carries it, and a
 * price that changed in between is refused with the new one.
 */
export function LiveSiteUpdates() {
  const signedIn = Boolean(useMe().data);
  const queryClient = useQueryClient();
  const revalidator = useRevalidator();
  useLiveEvents(
    (event) => {
      if (event.type !== 'settings' && event.type !== 'catalog') return;
      void queryClient.invalidateQueries({ queryKey: catalogKeys.all });
      if (event.type === 'settings') void revalidator.revalidate();
    },
    { enabled: signedIn },
  );
  return null;
}
