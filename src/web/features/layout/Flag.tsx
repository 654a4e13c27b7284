import { useId } from 'react';
import type { Language } from '../../../core/i18n';

/**
 * Small inline flags for the language switcher (Azerbaijan, Türkiye, United Kingdom). They are
 * decorative: the control next to them carries the language's name.
 */
export function Flag({ lang, className = 'h-3.5 w-5' }: { lang: Language; className?: string }) {
  const clipId = useId();
  const common = { className: `${className} shrink-0 rounded-[3px] shadow-[0_0_0_1px_rgba(15,23,42,0.12)]`, 'aria-hidden': true, focusable: false } as const;
  if (lang === 'az')
    return (
      <svg viewBox="0 0 30 20" {...common}>
        <rect width="30" height="20" fill="#00b5e2" />
        <rect y="6.67" width="30" height="6.67" fill="#ef3340" />
        <rect y="13.33" width="30" height="6.67" fill="#509e2f" />
        <circle cx="14" cy="10" r="3" fill="#fff" />
        <circle cx="14.8" cy="10" r="2.4" fill="#ef3340" />
        <path d="m18.2 8.6.35 1 1.05.05-.83.64.3 1.01-.87-.6-.87.6.3-1.01-.83-.64 1.05-.05z" fill="#fff" />
      </svg>
    );
  if (lang === 'tr')
    return (
      <svg viewBox="0 0 30 20" {...common}>
        <rect width="30" height="20" fill="#e30a17" />
        <circle cx="11" cy="10" r="5" fill="#fff" />
        <circle cx="12.25" cy="10" r="4" fill="#e30a17" />
        <path d="m16.2 10 3.6-1.17-2.22 3.06V8.11l2.22 3.06z" fill="#fff" />
      </svg>
    );
  return (
    <svg viewBox="0 0 60 40" {...common}>
      <clipPath id={clipId}>
        <path d="M0 0h60v40H0z" />
      </clipPath>
      <g clipPath={`url(#${clipId})`}>
        <path d="M0 0h60v40H0z" fill="#012169" />
        <path d="m0 0 60 40M60 0 0 40" stroke="#fff" strokeWidth="8" />
        <path d="m0 0 60 40M60 0 0 40" stroke="#c8102e" strokeWidth="3" />
        <path d="M30 0v40M0 20h60" stroke="#fff" strokeWidth="12" />
        <path d="M30 0v40M0 20h60" stroke="#c8102e" strokeWidth="7" />
      </g>
    </svg>
  );
}
