import { createElement, forwardRef, type SVGProps } from 'react';

/** An icon of ./icons.ts: lucide's markup (the server renders with lucide-react), without lucide's icon factory. */
export type Shape = [tag: string, attributes: Record<string, string>];
type IconProps = SVGProps<SVGSVGElement> & { size?: number | string; strokeWidth?: number | string; color?: string };

const labelled = (props: object) => Object.keys(props).some((key) => key.startsWith('aria-') || key === 'role' || key === 'title');

/** `names`: the icon's lucide name, then the name it is imported by where that differs (lucide puts both in its classes). */
export function icon(names: string, shapes: Shape[]) {
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
