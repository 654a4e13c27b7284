import { Check, ChevronDown } from 'lucide-react';
import type { KeyboardEvent } from 'react';
import { useTranslation } from '../../i18n';
import { Link, useLocation } from 'react-router';
import { LANGUAGES, type Language } from '../../../core/i18n';
import { hasLanguagePrefix, rememberLanguage, switchLanguagePath, useLanguage } from '../../lib/language';
import { Flag } from './Flag';
import { useDropdown } from '../../components/ui/useDropdown';

/**
 * Where a language choice leads: on a public page only the language segment changes; an
 * unprefixed page (terms, privacy) stays where it is and renders again in the stored language.
 * The query string is kept either way.
 */
export function languageHref(pathname: string, search: string, lang: Language): string {
  return (hasLanguagePrefix(pathname) ? switchLanguagePath(pathname, lang) : pathname) + search;
}

/**
 * Flag button that opens a short list of the three languages (a disclosure: Tab and the arrow
 * keys move through it, Escape closes it and returns focus to the button).
 */
export function LanguageSwitcher({ align = 'right' }: { align?: 'left' | 'right' }) {
  const { t } = useTranslation();
  const current = useLanguage();
  const { pathname, search } = useLocation();
  const { open, setOpen, id, root, button, closeToButton } = useDropdown();

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'Escape' && open) {
      e.preventDefault();
      closeToButton();
      return;
    }
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    e.preventDefault();
    if (!open) {
      setOpen(true);
      return;
    }
    const items = [...(root.current?.querySelectorAll<HTMLAnchorElement>('[data-lang-option]') ?? [])];
    const at = items.indexOf(document.activeElement as HTMLAnchorElement);
    const next = e.key === 'ArrowDown' ? (at + 1) % items.length : (at - 1 + items.length) % items.length;
    items[next]?.focus();
  };

  return (
    <div ref={root} className="relative" onKeyDown={onKeyDown}>
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={id}
        aria-label={t('language.label', { name: t(`language.names.${current}`) })}
        onClick={() => setOpen((o) => !o)}
        className="inline-flex h-10 items-center gap-2 rounded-xl border border-slate-200 bg-white px-3 text-sm font-semibold text-slate-700 hover:border-brand-300 hover:text-brand-700"
      >
        <Flag lang={current} />
        <span className="uppercase">{current}</span>
        <ChevronDown className={`size-4 transition-transform ${open ? 'rotate-180' : ''}`} aria-hidden="true" />
      </button>
      <ul
        id={id}
        hidden={!open}
        className={`absolute z-40 mt-2 w-48 overflow-hidden rounded-xl border border-slate-200 bg-white py-1 shadow-lg ${align === 'right' ? 'right-0' : 'left-0'}`}
      >
        {LANGUAGES.map((lang) => (
          <li key={lang}>
            <Link
              data-lang-option
              to={languageHref(pathname, search, lang)}
              replace={!hasLanguagePrefix(pathname)}
              lang={lang}
              hrefLang={lang}
              aria-current={lang === current ? 'true' : undefined}
              onClick={() => {
                rememberLanguage(lang);
                setOpen(false);
              }}
              className="flex items-center gap-3 px-3 py-2 text-sm text-slate-700 hover:bg-brand-50 hover:text-brand-700 focus-visible:bg-brand-50 aria-[current]:font-semibold aria-[current]:text-brand-700"
            >
              <Flag lang={lang} />
              <span className="flex-1">{t(`language.names.${lang}`)}</span>
              {lang === current ? <Check className="size-4" aria-hidden="true" /> : null}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
