import { ArrowRight } from 'lucide-react';
import { platformName } from '../../lib/platformName';
import { useTranslation } from '../../i18n';
import { Link } from 'react-router';
import { Spinner } from '../../components/ui/Spinner';
import { useLanguage } from '../../lib/language';
import { PlatformIcon } from '../../components/PlatformIcon';

/** Tile backgrounds; the nth platform gets the (n mod 8)th (8 gradients; docs/rules.md#catalogue). */
export const TILE_GRADIENTS = [
  'from-pink-500 to-rose-500',
  'from-slate-800 to-slate-950',
  'from-red-500 to-red-700',
  'from-blue-500 to-blue-700',
  'from-sky-600 to-indigo-700',
  'from-sky-400 to-cyan-600',
  'from-brand-500 to-violet-600',
  'from-emerald-500 to-teal-600',
] as const;

export interface PlatformGridProps {
  /** Platform names in display order; undefined or empty shows the empty message. */
  platforms: string[] | undefined;
  loading: boolean;
}

/** One tile per platform, each leading to the order page for it; a spinner while loading. */
export function PlatformGrid({ platforms, loading }: PlatformGridProps) {
  const { t } = useTranslation('home');
  const lang = useLanguage();

  if (loading)
    return (
      <div className="flex justify-center py-16">
        <Spinner label={t('platforms.loading')} className="size-10" />
      </div>
    );

  if (!platforms?.length)
    return (
      <p className="mx-auto max-w-md rounded-2xl border border-dashed border-slate-300 bg-white px-6 py-10 text-center text-slate-600">
        {t('platforms.empty')}
      </p>
    );

  return (
    <ul className="grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-4">
      {platforms.map((platform, i) => (
        <li key={platform}>
          <Link
            to={`/${lang}/order?platform=${encodeURIComponent(platform.toLowerCase())}`}
            className={`group flex h-full flex-col justify-between gap-6 rounded-2xl bg-gradient-to-br p-5 text-white shadow-sm transition hover:-translate-y-1 hover:shadow-lg ${TILE_GRADIENTS[i % TILE_GRADIENTS.length]}`}
          >
            <span className="grid size-12 place-items-center rounded-xl bg-white/15 ring-1 ring-white/25">
              <PlatformIcon platform={platform} className="size-6" />
            </span>
            <span className="flex items-center justify-between gap-2">
              <span className="text-lg font-bold">{platformName(t, platform)}</span>
              <ArrowRight className="size-5 opacity-80 transition group-hover:translate-x-1" aria-hidden="true" />
            </span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
