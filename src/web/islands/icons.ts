/**
 * The lucide icons island components use, for public pages: the islands build resolves
 * 'lucide-react' to this module (vite.islands.config.ts), so a page's islands carry the shapes of
 * the icons they show and one small component (./icon.ts) instead of lucide's icon factory; one
 * module per icon, so each lands in the chunk of the island that shows it. The markup is lucide's
 * own (icons.test.tsx renders both): the server renders with lucide-react and the browser
 * hydrates with these. An island that imports an icon not listed here fails the islands build.
 */
export { AlertTriangle } from './icons/alert-triangle';
export { ArrowLeft } from './icons/arrow-left';
export { Building2 } from './icons/building-2';
export { Check } from './icons/check';
export { CheckCheck } from './icons/check-check';
export { CheckCircle2 } from './icons/check-circle-2';
export { ChevronDown } from './icons/chevron-down';
export { ChevronLeft } from './icons/chevron-left';
export { ChevronRight } from './icons/chevron-right';
export { CircleDashed } from './icons/circle-dashed';
export { Clock } from './icons/clock';
export { Copy } from './icons/copy';
export { CreditCard } from './icons/credit-card';
export { ExternalLink } from './icons/external-link';
export { Eye } from './icons/eye';
export { Globe } from './icons/globe';
export { Headphones } from './icons/headphones';
export { Headset } from './icons/headset';
export { History } from './icons/history';
export { Inbox } from './icons/inbox';
export { Info } from './icons/info';
export { KeyRound } from './icons/key-round';
export { LayoutDashboard } from './icons/layout-dashboard';
export { LifeBuoy } from './icons/life-buoy';
export { ListChecks } from './icons/list-checks';
export { ListPlus } from './icons/list-plus';
export { Loader2 } from './icons/loader-2';
export { Lock } from './icons/lock';
export { LogOut } from './icons/log-out';
export { Mail } from './icons/mail';
export { Menu } from './icons/menu';
export { MessageCircle } from './icons/message-circle';
export { Music2 } from './icons/music-2';
export { PackageOpen } from './icons/package-open';
export { PackageSearch } from './icons/package-search';
export { Plus } from './icons/plus';
export { Receipt } from './icons/receipt';
export { RefreshCw } from './icons/refresh-cw';
export { Repeat2 } from './icons/repeat-2';
export { RotateCcw } from './icons/rotate-ccw';
export { RotateCw } from './icons/rotate-cw';
export { Search } from './icons/search';
export { Send } from './icons/send';
export { SendHorizontal } from './icons/send-horizontal';
export { Settings } from './icons/settings';
export { Share2 } from './icons/share-2';
export { ShieldCheck } from './icons/shield-check';
export { ShoppingBag } from './icons/shopping-bag';
export { ShoppingCart } from './icons/shopping-cart';
export { Trash2 } from './icons/trash-2';
export { TrendingUp } from './icons/trending-up';
export { Upload } from './icons/upload';
export { UserRound } from './icons/user-round';
export { Wallet } from './icons/wallet';
export { Wrench } from './icons/wrench';
export { X } from './icons/x';
export { XCircle } from './icons/x-circle';
