import { ChevronDown, Share2 } from 'lucide-react';
import { useEffect, useRef, type KeyboardEvent } from 'react';
import { useTranslation } from '../../i18n';
import { Link, useLocation } from 'react-router';
import { useLanguage } from '../../lib/language';
import { platformName } from '../../lib/platformName';
import { usePlatforms } from './api';
import { useDropdown } from '../../components/ui/useDropdown';
import { useIdle } from '../../lib/idle';

/** Where a platform's services are ordered (docs/rules.md#catalogue). */
export const orderHref = (lang: string, platform: string) => `/${lang}/order?platform=${encodeURIComponent(platform.toLowerCase())}`;

/**
 * The header's social-media dropdown: the platforms of the service list (instagram, tiktok,
 * youtube, facebook first, then alphabetical, services without a platform under "Other" last, at most
 * 12), each leading to its order page. The list is asked for when the browser is first idle
 * after the page is live, or when the menu opens, whichever comes first.
 * A menu button: Enter, Space or the arrow keys open it; the arrows, Home and End move through
 * it; Escape closes it and returns focus to the button; Tab or a click elsewhere closes it.
 * Written by hand instead of with Radix, because it ships with every public page.
 */
export function PlatformMenu({ align = 'left' }: { align?: 'left' | 'right' }) {
  const { t } = useTranslation();
  const lang = useLanguage();
  const { key: locationKey } = useLocation();
  const { open, setOpen, id, root, button, closeToButton } = useDropdown();
  // Asked for once the page is live and the browser idle, or at once when the menu opens: not
  // a request of the page's load.
  const idle = useIdle();
  const { platforms, loading } = usePlatforms(undefined, idle || open);
  const list = platforms ?? [];

  useEffect(() => setOpen(false), [locationKey, setOpen]);

  const items = () => [...(root.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
  const focusItem = (which: 'first' | 'last' | 1 | -1) => {
    const all = items();
    if (all.length === 0) return;
    const at = all.indexOf(document.activeElement as HTMLElement);
    const index =
      which === 'first' ? 0 : which === 'last' ? all.length - 1 : at === -1 ? 0 : (at + which + all.length) % all.length;
    all[index]?.focus();
  };
  // Which entry takes focus once the open list is shown and has its entries (they may still be
  // arriving when it opens): done after the render that shows them, not on a timer.
  const pendingFocus = useRef<'first' | 'last' | null>(null);
  const openAndFocus = (which: 'first' | 'last') => {
    pendingFocus.current = which;
    setOpen(true);
  };
  useEffect(() => {
    if (!open || !pendingFocus.current || list.length === 0) return;
    focusItem(pendingFocus.current);
    pendingFocus.current = null;
  });

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const onButton = e.target === button.current;
    switch (e.key) {
      case 'Escape':
        if (!open) return;
        e.preventDefault();
        closeToButton();
        return;
      case 'ArrowDown':
      case 'ArrowUp':
        e.preventDefault();
        if (!open || onButton) openAndFocus(e.key === 'ArrowDown' ? 'first' : 'last');
        else focusItem(e.key === 'ArrowDown' ? 1 : -1);
        return;
      case 'Home':
      case 'End':
        if (!open || onButton) return;
        e.preventDefault();
        focusItem(e.key === 'Home' ? 'first' : 'last');
        return;
      case 'Tab':
        if (open) setOpen(false);
        return;
    }
  };

  return (
    <div ref={root} className="relative" onKeyDown={onKeyDown}>
      <button
        ref={button}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => (open ? setOpen(false) : openAndFocus('first'))}
        className="inline-flex h-10 items-center gap-2 rounded-xl px-3 text-sm font-semibold text-slate-600 hover:bg-slate-50 hover:text-slate-900 aria-expanded:bg-brand-50 aria-expanded:text-brand-700"
      >
        <Share2 className="size-4" aria-hidden="true" />
        {t('platformMenu.label')}
        <ChevronDown className={`size-4 transition-transform ${open ? 'rotate-180' : ''}`} aria-hidden="true" />
      </button>
      <div
        hidden={!open}
        className={`absolute z-40 mt-2 w-56 overflow-hidden rounded-xl border border-slate-200 bg-white shadow-lg ${align === 'right' ? 'right-0' : 'left-0'}`}
      >
        {list.length === 0 ? (
          <p className="px-4 py-3 text-sm text-slate-500">{loading ? t('loading') : t('platformMenu.empty')}</p>
        ) : null}
        <ul id={id} role="menu" aria-label={t('platformMenu.label')} className="max-h-80 overflow-y-auto overscroll-contain py-1">
          {list.map((platform) => (
            <li key={platform} role="none">
              <Link
                role="menuitem"
                tabIndex={-1}
                to={orderHref(lang, platform)}
                onClick={() => setOpen(false)}
                className="flex items-center gap-3 px-4 py-2.5 text-sm font-medium text-slate-700 outline-none hover:bg-brand-50 hover:text-brand-700 focus-visible:bg-brand-50 focus-visible:text-brand-700"
              >
                <span aria-hidden="true" className="size-2 rounded-full bg-brand-500/70" />
                {platformName(t, platform)}
              </Link>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
