import { Code2, Megaphone, MousePointerClick, PenTool, PlaySquare, Radio, Search, Target, type LucideIcon } from 'lucide-react';

/**
 * The agency's marketing services (spec 01 §1), shown on the services page and the detail page.
 * Names and texts live in the `services` namespace under `items.<id>`; the id is stable and
 * appears in the detail page's address. Start prices are whole AZN; the spec lists seven start
 * prices for the main services, in order, so the eighth is priced on request.
 */
export interface MarketingService {
  id: string;
  category: 'standard';
  /** Start price in AZN, or null when priced on request. */
  priceFromAzn: number | null;
  icon: LucideIcon;
  /** Gradient of the card's icon tile. */
  gradient: string;
}

export const MARKETING_SERVICES: readonly MarketingService[] = [
  { id: 'social-media-marketing', category: 'standard', priceFromAzn: 150, icon: Megaphone, gradient: 'from-pink-500 to-rose-500' },
  { id: 'google-ads', category: 'standard', priceFromAzn: 200, icon: MousePointerClick, gradient: 'from-blue-500 to-sky-500' },
  { id: 'youtube-ads', category: 'standard', priceFromAzn: 120, icon: PlaySquare, gradient: 'from-red-500 to-orange-500' },
  { id: 'seo', category: 'standard', priceFromAzn: 80, icon: Search, gradient: 'from-emerald-500 to-teal-500' },
  { id: 'logo-design', category: 'standard', priceFromAzn: 300, icon: PenTool, gradient: 'from-amber-500 to-orange-500' },
  { id: 'website', category: 'standard', priceFromAzn: 500, icon: Code2, gradient: 'from-brand-500 to-violet-600' },
  { id: 'tv-radio-ads', category: 'standard', priceFromAzn: 160, icon: Radio, gradient: 'from-fuchsia-500 to-purple-600' },
  { id: 'facebook-instagram-ads', category: 'standard', priceFromAzn: null, icon: Target, gradient: 'from-indigo-500 to-blue-600' },
];

export const findMarketingService = (id: string | undefined) => MARKETING_SERVICES.find((s) => s.id === id);
