import { ChevronDown, Share2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';

/**
 * The header's social-media dropdown. Until the platform list is served it shows a disabled
 * button in its place, so the header keeps its final shape.
 */
export function PlatformMenu() {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      disabled
      className="inline-flex h-10 items-center gap-2 rounded-xl px-3 text-sm font-semibold text-slate-400"
    >
      <Share2 className="size-4" aria-hidden="true" />
      {t('platformMenu.label')}
      <ChevronDown className="size-4" aria-hidden="true" />
    </button>
  );
}
