import { useEffect, useState, type RefObject } from 'react';

/** Which sides of a sideways-scrolling strip have more content out of view. */
export interface OverflowEdges {
  start: boolean;
  end: boolean;
}

/** The edges as one word, for a `data-overflow` attribute. */
export const overflowName = (edges: OverflowEdges) => (edges.start && edges.end ? 'both' : edges.end ? 'end' : edges.start ? 'start' : 'none');

/** The mask that fades the side(s) of a strip with more content out of view, so a cut-off tab reads as "scroll for more". */
export function overflowMaskClass(edges: OverflowEdges): string {
  if (edges.start && edges.end) return '[mask-image:linear-gradient(to_right,transparent,black_2.5rem,black_calc(100%-2.5rem),transparent)]';
  if (edges.end) return '[mask-image:linear-gradient(to_right,black_calc(100%-2.5rem),transparent)]';
  if (edges.start) return '[mask-image:linear-gradient(to_right,transparent,black_2.5rem)]';
  return '';
}

/** Watches a sideways-scrolling element and tells which of its edges hide content. */
export function useOverflowHint(ref: RefObject<HTMLElement | null>): OverflowEdges {
  const [edges, setEdges] = useState<OverflowEdges>({ start: false, end: false });
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => {
      const start = el.scrollLeft > 1;
      const end = el.scrollLeft + el.clientWidth < el.scrollWidth - 1;
      setEdges((old) => (old.start === start && old.end === end ? old : { start, end }));
    };
    measure();
    el.addEventListener('scroll', measure, { passive: true });
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    observer?.observe(el);
    return () => {
      el.removeEventListener('scroll', measure);
      observer?.disconnect();
    };
  }, [ref]);
  return edges;
}
