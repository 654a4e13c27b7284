import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';

/**
 * What a consultation button does. The consultation dialog (sign-in for guests, the request form
 * for signed-in users) plugs in here; until then the visitor is told how to reach the team.
 */
export function useConsultation(): (serviceName: string) => void {
  const { t } = useTranslation('services');
  return useCallback(
    (serviceName: string) => {
      toast.info(t('consult.toastTitle', { service: serviceName }), { description: t('consult.toastText') });
    },
    [t],
  );
}
