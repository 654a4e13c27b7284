/**
 * The lucide icons island components use, for public pages: the islands build resolves
 * 'lucide-react' to this module (vite.islands.config.ts), so a page's islands carry the shapes of
 * the icons they show and one small component (./icon.ts) instead of lucide's icon factory; one
 * module per icon, so each lands in the chunk of the island that shows it. The markup is lucide's
 * own (icons.test.tsx renders both): the server renders with lucide-react and the browser
 * hydrates with these. An island that imports an icon not listed here fails the islands build.
 */
export { AlertTriangle } from './icons/alert-triangle';
export { Check } from './icons/check';
export { CheckCircle2 } from './icons/check-circle-2';
export { ChevronDown } from './icons/chevron-down';
export { CircleDashed } from './icons/circle-dashed';
export { Clock } from './icons/clock';
export { CreditCard } from './icons/credit-card';
export { ExternalLink } from './icons/external-link';
export { Globe } from './icons/globe';
export { Headphones } from './icons/headphones';
export { Info } from './icons/info';
export { LayoutDashboard } from './icons/layout-dashboard';
export { LifeBuoy } from './icons/life-buoy';
export { Menu } from './icons/menu';
export { MessageCircle } from './icons/message-circle';
export { Music2 } from './icons/music-2';
export { PackageSearch } from './icons/package-search';
export { RotateCw } from './icons/rotate-cw';
export { Search } from './icons/search';
export { Send } from './icons/send';
export { Share2 } from './icons/share-2';
export { ShieldCheck } from './icons/shield-check';
export { ShoppingCart } from './icons/shopping-cart';
export { TrendingUp } from './icons/trending-up';
export { X } from './icons/x';
export { XCircle } from './icons/x-circle';
