import type { LucideIcon } from 'lucide-react';
import { useEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { cn } from './cn';
import { overflowMaskClass, overflowName, useOverflowHint } from './useOverflowHint';

export interface TabItem<Id extends string> {
  id: Id;
  label: ReactNode;
  icon?: LucideIcon;
}

/**
 * `line`: tabs over an underline (pages); `pill`: a segmented control (forms, dialogs); `stretch` shares the width out;
 * `wrap`: a segmented control whose tabs wrap onto more rows rather than scroll; `grid`: a grid of tabs (icon
 * over label) every one in view — four a row on phones, one row from 640 px — and from 1280 px the `line` look.
 */
export type TabsLook = 'line' | 'pill' | 'stretch' | 'wrap' | 'grid';

const LIST_LOOK: Record<TabsLook, string> = {
  line: '-mx-4 flex gap-1 overflow-x-auto border-b border-slate-200 px-4 [scrollbar-width:none] sm:mx-0 sm:px-0',
  pill: 'mb-5 flex gap-1 overflow-x-auto rounded-xl bg-slate-100 p-1 [scrollbar-width:none]',
  stretch: 'mb-5 flex gap-1 rounded-xl bg-slate-100 p-1',
  wrap: 'flex flex-wrap gap-1 rounded-xl bg-slate-100 p-1',
  grid: 'grid grid-cols-4 gap-1 rounded-xl bg-slate-100 p-1 sm:grid-cols-none sm:auto-cols-fr sm:grid-flow-col xl:flex xl:rounded-none xl:border-b xl:border-slate-200 xl:bg-transparent xl:p-0',
};
const TAB_LOOK: Record<TabsLook, (selected: boolean) => string> = {
  line: (selected) =>
    cn(
      '-mb-px inline-flex shrink-0 items-center gap-2 border-b-2 px-4 py-3 text-sm font-semibold transition-colors focus-visible:outline-2 focus-visible:-outline-offset-2',
      selected ? 'border-brand-600 text-brand-700' : 'border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-900',
    ),
  pill: (selected) =>
    cn('inline-flex items-center gap-2 whitespace-nowrap rounded-lg px-4 py-2 text-sm font-semibold transition-colors', selected ? 'bg-white text-brand-700 shadow-sm' : 'text-slate-600 hover:text-slate-900'),
  stretch: (selected) => cn('flex-1 rounded-lg px-3 py-2 text-sm font-semibold', selected ? 'bg-white text-brand-700 shadow-sm' : 'text-slate-600'),
  wrap: (selected) =>
    cn('inline-flex items-center gap-2 rounded-lg px-3 py-1.5 text-sm font-semibold transition-colors', selected ? 'bg-white text-brand-700 shadow-sm' : 'text-slate-600 hover:text-slate-900'),
  grid: (selected) =>
    cn(
      'flex min-w-0 flex-col items-center justify-center gap-1 rounded-lg px-1 py-2 text-center text-xs leading-tight font-semibold break-words transition-colors',
      'sm:text-sm xl:-mb-px xl:shrink-0 xl:flex-row xl:gap-2 xl:rounded-none xl:border-b-2 xl:px-4 xl:py-3 focus-visible:outline-2 focus-visible:-outline-offset-2',
      selected
        ? 'bg-white text-brand-700 shadow-sm xl:border-brand-600 xl:bg-transparent xl:shadow-none'
        : 'text-slate-600 hover:text-slate-900 xl:border-transparent xl:hover:border-slate-300',
    ),
};

/** Where a key moves the selection in a list of `count` tabs: the next index, or -1 for keys that do not move it. */
export function tabAfterKey(key: string, index: number, count: number): number {
  if (key === 'ArrowRight' || key === 'ArrowDown') return (index + 1) % count;
  if (key === 'ArrowLeft' || key === 'ArrowUp') return (index - 1 + count) % count;
  if (key === 'Home') return 0;
  if (key === 'End') return count - 1;
  return -1;
}

/**
 * The one tab list of the app (dashboard, admin pages, forms, the sign-in dialog): a WAI-ARIA
 * tab list with one tab in the Tab order; arrows (and Home/End) move between tabs and select
 * them. Scrolls sideways on narrow screens (`wrap` and `grid` keep every tab in view instead). Its panels are `TabPanel`s with the same `idPrefix`.
 */
export function TabList<Id extends string>({
  items,
  value,
  onChange,
  label,
  idPrefix,
  look = 'line',
}: {
  items: readonly TabItem<Id>[];
  value: Id;
  onChange: (id: Id) => void;
  label: string;
  idPrefix: string;
  look?: TabsLook;
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
    const next = tabAfterKey(e.key, items.findIndex((i) => i.id === value), items.length);
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
      className={cn(LIST_LOOK[look], overflowMaskClass(edges))}
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
            className={TAB_LOOK[look](selected)}
          >
            {Icon ? <Icon className="size-4" aria-hidden="true" /> : null}
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
  className,
  children,
}: {
  id: string;
  idPrefix: string;
  active: boolean;
  keepMounted?: boolean;
  className?: string;
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
      className={cn('focus-visible:outline-none', className)}
    >
      {children}
    </div>
  );
}
