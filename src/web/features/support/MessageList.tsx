import { Headset, UserRound } from 'lucide-react';
import { useEffect, useRef } from 'react';
import type { TicketMessageView } from '../../../core/contracts/support';
import { cn } from '../../components/ui/cn';
import { formatDateTime } from '../../lib/format';
import { Outcomes } from './Outcomes';

export interface Bubble {
  id: string;
  message: string;
  isAdmin: boolean;
  createdAt: string;
}

/**
 * A conversation, oldest first. `side` says whose messages sit on the right: the customer sees
 * the team's replies on the left (docs/rules.md#support); the team sees the customer's there.
 */
export function MessageList({
  messages,
  side,
  lang,
  names,
  empty,
  className,
}: {
  messages: (TicketMessageView | Bubble)[];
  side: 'customer' | 'team';
  lang: string;
  names: { team: string; customer: string };
  empty?: string;
  className?: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const last = messages.at(-1)?.id;
  // The newest message in view, scrolling only the conversation, never the page.
  useEffect(() => {
    if (box.current) box.current.scrollTop = box.current.scrollHeight;
  }, [last]);

  return (
    <div ref={box} className={cn('overflow-y-auto bg-slate-50', className)}>
    <ol className="flex flex-col gap-4 p-4 sm:p-5" aria-live="polite" aria-relevant="additions">
      {messages.map((m) => {
        const mine = side === 'team' ? m.isAdmin : !m.isAdmin;
        const Icon = m.isAdmin ? Headset : UserRound;
        // The shop's own answer to a refill or cancel request, worded on this screen from its codes.
        const outcomes = 'outcomes' in m && m.outcomes ? m.outcomes : null;
        return (
          <li key={m.id} className={cn('flex max-w-[85%] items-end gap-2 sm:max-w-[75%]', mine ? 'flex-row-reverse self-end' : 'self-start')} data-admin={m.isAdmin ? 'true' : 'false'}>
            <span className={cn('grid size-8 shrink-0 place-items-center rounded-full', m.isAdmin ? 'bg-violet-100 text-violet-700' : 'bg-brand-100 text-brand-700')} aria-hidden="true">
              <Icon className="size-4" />
            </span>
            <div className={cn('min-w-0', mine && 'text-right')}>
              <p className="mb-1 text-xs text-slate-500">
                <span className="font-semibold text-slate-700">{m.isAdmin ? names.team : names.customer}</span> · <time dateTime={m.createdAt}>{formatDateTime(m.createdAt, lang)}</time>
              </p>
              <div
                className={cn(
                  'whitespace-pre-wrap break-words rounded-2xl px-4 py-2.5 text-left text-sm leading-relaxed shadow-sm',
                  mine && !outcomes ? 'rounded-br-md bg-brand-600 text-white' : 'border border-slate-200 bg-white text-slate-800',
                  mine ? 'rounded-br-md' : 'rounded-bl-md',
                )}
              >
                {outcomes ? <Outcomes outcomes={outcomes} /> : m.message}
              </div>
            </div>
          </li>
        );
      })}
      {messages.length === 0 && empty ? <li className="py-6 text-center text-sm text-slate-500">{empty}</li> : null}
    </ol>
    </div>
  );
}
