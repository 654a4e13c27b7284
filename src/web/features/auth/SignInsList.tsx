import { useTranslation } from '../../i18n';
import type { SignInEntry } from '../../../core/contracts/account';
import { formatDateTime } from '../../lib/format';

/** "Chrome on Windows", worded in the page's language; unknown parts said so. */
export function useDeviceText() {
  const { t } = useTranslation('auth');
  return (entry: Pick<SignInEntry, 'browser' | 'os'>) =>
    t('signIns.device', { browser: entry.browser ?? t('signIns.unknownBrowser'), os: entry.os ?? t('signIns.unknownOs') });
}

/**
 * Recent sign-ins, newest first (docs/rules.md#second-factor): when, from which address, on which
 * device, and how the last step was passed. The account page and the team's user page show it.
 */
export function SignInsList({ entries }: { entries: readonly SignInEntry[] }) {
  const { t, i18n } = useTranslation('auth');
  const device = useDeviceText();
  if (!entries.length) return <p className="text-sm text-slate-600">{t('signIns.empty')}</p>;
  return (
    <ul className="divide-y divide-slate-100 rounded-xl border border-slate-200" data-testid="sign-ins">
      {entries.map((entry, i) => (
        <li key={`${entry.at}-${i}`} className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 px-4 py-3 text-sm" data-testid="sign-in">
          <span className="font-medium text-slate-900">{device(entry)}</span>
          <span className="text-slate-600">
            <time dateTime={entry.at}>{formatDateTime(entry.at, i18n.language)}</time>
            <span aria-hidden="true"> · </span>
            <span className="sr-only">{t('signIns.address')}: </span>
            <span className="tabular-nums">{entry.ipAddress ?? '—'}</span>
          </span>
          <span className="w-full text-xs text-slate-500">
            {t('signIns.method')}: {t(`signIns.methods.${entry.method}`)}
          </span>
        </li>
      ))}
    </ul>
  );
}
