import {
  BarChart3,
  Camera,
  Code2,
  Globe2,
  Heart,
  Megaphone,
  MessageCircle,
  MousePointerClick,
  Music2,
  PenTool,
  PlaySquare,
  Radio,
  Rocket,
  Search,
  Share2,
  Sparkles,
  Star,
  Target,
  TrendingUp,
  Users,
  type LucideIcon,
} from 'lucide-react';

/**
 * The icons an admin may name for a service (the admin form's icon field). Only these are in
 * the bundle; any other name shows the generic one.
 */
const ICONS: Record<string, LucideIcon> = {
  BarChart3,
  Camera,
  Code2,
  Globe2,
  Heart,
  Megaphone,
  MessageCircle,
  MousePointerClick,
  Music2,
  PenTool,
  PlaySquare,
  Radio,
  Rocket,
  Search,
  Share2,
  Sparkles,
  Star,
  Target,
  TrendingUp,
  Users,
};

export const serviceIcon = (name: string | null): LucideIcon => (name && Object.hasOwn(ICONS, name) ? ICONS[name]! : Sparkles);

/** Icon tile gradients, taken in turn by position in the list. */
const GRADIENTS = [
  'from-pink-500 to-rose-500',
  'from-blue-500 to-sky-500',
  'from-red-500 to-orange-500',
  'from-emerald-500 to-teal-500',
  'from-amber-500 to-orange-500',
  'from-brand-500 to-violet-600',
  'from-fuchsia-500 to-purple-600',
  'from-indigo-500 to-blue-600',
] as const;

export const serviceGradient = (index: number) => GRADIENTS[index % GRADIENTS.length]!;
