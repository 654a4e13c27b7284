import { useQueryClient } from '@tanstack/react-query';
import { useRevalidator } from 'react-router';
import { useLiveEvents } from '../lib/liveEvents';
import { ME_QUERY_KEY, useMe } from '../features/auth/api';
import { catalogKeys } from '../features/catalog/api';
import { paymentKeys } from '../features/payments/api';

/**
 * Applies settings and catalogue changes to the open page of a signed-in visitor as they happen:
 * the catalogue (prices, fees, names) is read again, and so are the site settings the root route
 * loaded; a change of their own discount reads their signed-in state (which carries it) again. A price shown is then the price charged; the order request still carries it, and a
 * price that changed in between is refused with the new one. After the stream was down (or
 * events may have been missed) both are read again; when the server finds the session ended, the
 * signed-in state is read again, so the page shows the visitor signed out.
 */
export function LiveSiteUpdates() {
  const signedIn = Boolean(useMe().data);
  const queryClient = useQueryClient();
  const revalidator = useRevalidator();
  useLiveEvents(
    (event) => {
      // The customer's discount changed: their prices are read again with it (docs/rules.md#discounts).
      if (event.type === 'pricing') void queryClient.invalidateQueries({ queryKey: ME_QUERY_KEY });
      if (event.type !== 'settings' && event.type !== 'catalog') return;
      void queryClient.invalidateQueries({ queryKey: catalogKeys.all });
      if (event.type === 'settings') {
        void revalidator.revalidate();
        // A rate or a payment method changed: the top-up dialog reads its methods again.
        void queryClient.invalidateQueries({ queryKey: paymentKeys.methods() });
      }
    },
    {
      enabled: signedIn,
      onReconnect: () => {
        void queryClient.invalidateQueries({ queryKey: catalogKeys.all });
        void revalidator.revalidate();
      },
      onSessionEnded: () => void queryClient.invalidateQueries({ queryKey: ME_QUERY_KEY }),
    },
  );
  return null;
}
