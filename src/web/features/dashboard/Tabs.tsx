import type { LucideIcon } from 'lucide-react';
import { useEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { cn } from '../../components/ui/cn';
import { overflowMaskClass, overflowName, useOverflowHint } from '../../components/ui/useOverflowHint';

export interface TabItem<Id extends string> {
  id: Id;
  label: string;
  icon: LucideIcon;
}

/**
 * A WAI-ARIA tab list: one tab in the Tab order, arrows (and Home/End) move between tabs and
 * select them. Scrolls sideways on narrow screens.
 */
export function TabList<Id extends string>({
  items,
  value,
  onChange,
  label,
  idPrefix,
}: {
  items: readonly TabItem<Id>[];
  value: Id;
  onChange: (id: Id) => void;
  label: string;
  idPrefix: string;
}) {
  const refs = useRef(new Map<Id, HTMLButtonElement>());
  const list = useRef<HTMLDivElement>(null);
  const edges = useOverflowHint(list);

  // On narrow screens the strip scrolls sideways: keep the selected tab in view (sideways only).
  useEffect(() => {
    const strip = list.current;
    const tab = refs.current.get(value);
    if (!strip || !tab) return;
    const left = tab.offsetLeft - strip.offsetLeft;
    if (left < strip.scrollLeft) strip.scrollLeft = left - 16;
    else if (left + tab.offsetWidth > strip.scrollLeft + strip.clientWidth) strip.scrollLeft = left + tab.offsetWidth - strip.clientWidth + 16;
  }, [value]);

  function onKeyDown(e: KeyboardEvent) {
    const index = items.findIndex((i) => i.id === value);
    const next =
      e.key === 'ArrowRight' || e.key === 'ArrowDown'
        ? (index + 1) % items.length
        : e.key === 'ArrowLeft' || e.key === 'ArrowUp'
          ? (index - 1 + items.length) % items.length
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? items.length - 1
              : -1;
    if (next < 0) return;
    e.preventDefault();
    const id = items[next]!.id;
    onChange(id);
    const el = refs.current.get(id);
    el?.focus({ preventScroll: true });
  }

  return (
    <div
      ref={list}
      role="tablist"
      aria-label={label}
      onKeyDown={onKeyDown}
      data-overflow={overflowName(edges)}
      className={cn('-mx-4 flex gap-1 overflow-x-auto border-b border-slate-200 px-4 [scrollbar-width:none] sm:mx-0 sm:px-0', overflowMaskClass(edges))}
    >
      {items.map(({ id, label: text, icon: Icon }) => {
        const selected = id === value;
        return (
          <button
            key={id}
            ref={(el) => {
              if (el) refs.current.set(id, el);
              else refs.current.delete(id);
            }}
            type="button"
            role="tab"
            id={`${idPrefix}-tab-${id}`}
            aria-selected={selected}
            aria-controls={selected ? `${idPrefix}-panel-${id}` : undefined}
            tabIndex={selected ? 0 : -1}
            onClick={() => onChange(id)}
            className={cn(
              '-mb-px inline-flex shrink-0 items-center gap-2 border-b-2 px-4 py-3 text-sm font-semibold transition-colors focus-visible:outline-2 focus-visible:-outline-offset-2',
              selected ? 'border-brand-600 text-brand-700' : 'border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-900',
            )}
          >
            <Icon className="size-4" aria-hidden="true" />
            {text}
          </button>
        );
      })}
    </div>
  );
}

/** A tab's panel; `keepMounted` hides it instead of unmounting it, so a half-filled form survives. */
export function TabPanel({
  id,
  idPrefix,
  active,
  keepMounted,
  children,
}: {
  id: string;
  idPrefix: string;
  active: boolean;
  keepMounted?: boolean;
  children: ReactNode;
}) {
  if (!active && !keepMounted) return null;
  return (
    <div
      role="tabpanel"
      id={`${idPrefix}-panel-${id}`}
      aria-labelledby={`${idPrefix}-tab-${id}`}
      hidden={!active}
      tabIndex={0}
      className="pt-6 focus-visible:outline-none"
    >
      {children}
    </div>
  );
}
