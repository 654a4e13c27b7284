import type { ComponentType, ReactNode } from 'react';
import { cn } from '../../components/ui/cn';

/**
 * A ticket list beside the chosen ticket's thread (docs/rules.md#support). On narrow screens one pane
 * shows at a time: the list, or the `Thread` of the `selected` ticket, whose back button calls
 * `onBack`; wide screens show both, with `placeholder` where no ticket is chosen yet.
 */
export function TicketPanes({
  selected,
  onBack,
  list,
  Thread,
  placeholder,
  placeholderClassName,
}: {
  selected: string | null;
  onBack: () => void;
  list: ReactNode;
  Thread: ComponentType<{ ticketId: string; onBack: () => void }>;
  placeholder: string;
  placeholderClassName: string;
}) {
  return (
    <div className="grid gap-5 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
      <div className={cn(selected && 'hidden lg:block')}>{list}</div>
      <div className={cn(!selected && 'hidden lg:block')}>
        {selected ? (
          <Thread key={selected} ticketId={selected} onBack={onBack} />
        ) : (
          <div className={cn('grid h-full min-h-[28rem] place-items-center rounded-2xl border border-dashed border-slate-300 p-8 text-center text-sm text-slate-500', placeholderClassName)}>
            {placeholder}
          </div>
        )}
      </div>
    </div>
  );
}
