import { createElement, forwardRef, type SVGProps } from 'react';

/**
 * The lucide icons island components use, for public pages: the islands build resolves
 * 'lucide-react' to this module (vite.islands.config.ts), so a page's islands carry each icon's
 * shapes and one small component instead of lucide's icon factory. The markup is lucide's own
 * (icons.test.tsx renders both): the server renders with lucide-react and the browser hydrates
 * with these. An island that imports an icon not listed here fails the islands build.
 */
type Shape = [tag: string, attributes: Record<string, string>];
type IconProps = SVGProps<SVGSVGElement> & { size?: number | string; strokeWidth?: number | string; color?: string };

const labelled = (props: object) => Object.keys(props).some((key) => key.startsWith('aria-') || key === 'role' || key === 'title');

/** `names`: the icon's lucide name, then the name it is imported by where that differs (lucide puts both in its classes). */
function icon(names: string, shapes: Shape[]) {
  const Icon = forwardRef<SVGSVGElement, IconProps>(function Icon({ size = 24, strokeWidth = 2, color = 'currentColor', className = '', children, ...rest }, ref) {
    return createElement(
      'svg',
      {
        ref,
        xmlns: 'http://www.w3.org/2000/svg',
        width: size,
        height: size,
        viewBox: '0 0 24 24',
        fill: 'none',
        stroke: color,
        strokeWidth,
        strokeLinecap: 'round',
        strokeLinejoin: 'round',
        className: ['lucide', ...names.split(' ').map((n) => `lucide-${n}`), ...className.split(' ')].filter(Boolean).join(' '),
        ...(children || labelled(rest) ? {} : { 'aria-hidden': 'true' }),
        ...rest,
      },
      ...shapes.map(([tag, attributes]) => createElement(tag, attributes)),
      children,
    );
  });
  Icon.displayName = names;
  return Icon;
}

export const Check = icon('check', [["path",{d:"M20 6 9 17l-5-5"}]]);
export const CheckCircle2 = icon('circle-check check-circle-2', [["circle",{cx:"12",cy:"12",r:"10"}],["path",{d:"m16 9-5.5 5.5L8 12"}]]);
export const ChevronDown = icon('chevron-down', [["path",{d:"m6 9 6 6 6-6"}]]);
export const CircleDashed = icon('circle-dashed', [["path",{d:"M10.1 2.182a10 10 0 0 1 3.8 0"}],["path",{d:"M13.9 21.818a10 10 0 0 1-3.8 0"}],["path",{d:"M17.609 3.721a10 10 0 0 1 2.69 2.7"}],["path",{d:"M2.182 13.9a10 10 0 0 1 0-3.8"}],["path",{d:"M20.279 17.609a10 10 0 0 1-2.7 2.69"}],["path",{d:"M21.818 10.1a10 10 0 0 1 0 3.8"}],["path",{d:"M3.721 6.391a10 10 0 0 1 2.7-2.69"}],["path",{d:"M6.391 20.279a10 10 0 0 1-2.69-2.7"}]]);
export const Clock = icon('clock', [["circle",{cx:"12",cy:"12",r:"10"}],["path",{d:"M12 6v6l4 2"}]]);
export const ExternalLink = icon('external-link', [["path",{d:"M15 3h6v6"}],["path",{d:"M10 14 21 3"}],["path",{d:"M18 13v6a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V8a2 2 0 0 1 2-2h6"}]]);
export const LayoutDashboard = icon('layout-dashboard', [["rect",{width:"7",height:"9",x:"3",y:"3",rx:"1"}],["rect",{width:"7",height:"5",x:"14",y:"3",rx:"1"}],["rect",{width:"7",height:"9",x:"14",y:"12",rx:"1"}],["rect",{width:"7",height:"5",x:"3",y:"16",rx:"1"}]]);
export const LifeBuoy = icon('life-buoy', [["circle",{cx:"12",cy:"12",r:"10"}],["path",{d:"m4.93 4.93 4.24 4.24"}],["path",{d:"m14.83 9.17 4.24-4.24"}],["path",{d:"m14.83 14.83 4.24 4.24"}],["path",{d:"m9.17 14.83-4.24 4.24"}],["circle",{cx:"12",cy:"12",r:"4"}]]);
export const Menu = icon('menu', [["path",{d:"M4 5h16"}],["path",{d:"M4 12h16"}],["path",{d:"M4 19h16"}]]);
export const MessageCircle = icon('message-circle', [["path",{d:"M2.992 16.342a2 2 0 0 1 .094 1.167l-1.065 3.29a1 1 0 0 0 1.236 1.168l3.413-.998a2 2 0 0 1 1.099.092 10 10 0 1 0-4.777-4.719"}]]);
export const PackageSearch = icon('package-search', [["path",{d:"M12 22V12"}],["path",{d:"M20.27 18.27 22 20"}],["path",{d:"M21 10.498V8a2 2 0 0 0-1-1.73l-7-4a2 2 0 0 0-2 0l-7 4A2 2 0 0 0 3 8v8a2 2 0 0 0 1 1.729l7 4a2 2 0 0 0 2 .001l.98-.559"}],["path",{d:"M3.29 7 12 12l8.71-5"}],["path",{d:"m7.5 4.27 8.997 5.148"}],["circle",{cx:"18.5",cy:"16.5",r:"2.5"}]]);
export const Search = icon('search', [["path",{d:"m21 21-4.34-4.34"}],["circle",{cx:"11",cy:"11",r:"8"}]]);
export const Send = icon('send', [["path",{d:"M14.536 21.686a.5.5 0 0 0 .937-.024l6.5-19a.496.496 0 0 0-.635-.635l-19 6.5a.5.5 0 0 0-.024.937l7.93 3.18a2 2 0 0 1 1.112 1.11z"}],["path",{d:"m21.854 2.147-10.94 10.939"}]]);
export const Share2 = icon('share-2', [["circle",{cx:"18",cy:"5",r:"3"}],["circle",{cx:"6",cy:"12",r:"3"}],["circle",{cx:"18",cy:"19",r:"3"}],["line",{x1:"8.59",x2:"15.42",y1:"13.51",y2:"17.49"}],["line",{x1:"15.41",x2:"8.59",y1:"6.51",y2:"10.49"}]]);
export const TrendingUp = icon('trending-up', [["path",{d:"M16 7h6v6"}],["path",{d:"m22 7-8.5 8.5-5-5L2 17"}]]);
export const X = icon('x', [["path",{d:"M18 6 6 18"}],["path",{d:"m6 6 12 12"}]]);
export const XCircle = icon('circle-x x-circle', [["circle",{cx:"12",cy:"12",r:"10"}],["path",{d:"m15 9-6 6"}],["path",{d:"m9 9 6 6"}]]);
