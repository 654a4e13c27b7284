import { Globe, Music2, Send } from 'lucide-react';
import type { SVGProps } from 'react';

type IconProps = SVGProps<SVGSVGElement>;
const stroke = { fill: 'none', stroke: 'currentColor', strokeWidth: 2, strokeLinecap: 'round', strokeLinejoin: 'round', viewBox: '0 0 24 24' } as const;

// Brand marks drawn in the same outline style as the rest of the icon set.
const Instagram = (p: IconProps) => (
  <svg {...stroke} {...p}>
    <rect x="2" y="2" width="20" height="20" rx="5" />
    <circle cx="12" cy="12" r="4" />
    <path d="M17.5 6.5h.01" />
  </svg>
);
const Youtube = (p: IconProps) => (
  <svg {...stroke} {...p}>
    <path d="M2.5 17a24.1 24.1 0 0 1 0-10 2 2 0 0 1 1.4-1.4 49.6 49.6 0 0 1 16.2 0A2 2 0 0 1 21.5 7a24.1 24.1 0 0 1 0 10 2 2 0 0 1-1.4 1.4 49.6 49.6 0 0 1-16.2 0A2 2 0 0 1 2.5 17" />
    <path d="m10 15 5-3-5-3z" />
  </svg>
);
const Facebook = (p: IconProps) => (
  <svg {...stroke} {...p}>
    <path d="M18 2h-3a5 5 0 0 0-5 5v3H7v4h3v8h4v-8h3l1-4h-4V7a1 1 0 0 1 1-1h3z" />
  </svg>
);
const Linkedin = (p: IconProps) => (
  <svg {...stroke} {...p}>
    <path d="M16 8a6 6 0 0 1 6 6v7h-4v-7a2 2 0 0 0-2-2 2 2 0 0 0-2 2v7h-4v-7a6 6 0 0 1 6-6z" />
    <rect width="4" height="12" x="2" y="9" />
    <circle cx="4" cy="4" r="2" />
  </svg>
);
const Twitter = (p: IconProps) => (
  <svg {...stroke} {...p}>
    <path d="M4 4l16 16M20 4 4 20" />
  </svg>
);

const ICONS: Record<string, (p: IconProps) => React.ReactNode> = {
  instagram: Instagram,
  tiktok: Music2,
  youtube: Youtube,
  facebook: Facebook,
  linkedin: Linkedin,
  twitter: Twitter,
  telegram: Send,
};

/** The platform's icon, or a globe for platforms without one. Decorative: the name is beside it. */
export function PlatformIcon({ platform, className }: { platform: string; className?: string }) {
  const Icon = ICONS[platform.toLowerCase()] ?? Globe;
  return <Icon className={className} aria-hidden="true" focusable="false" />;
}
