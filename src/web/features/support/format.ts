import type { TicketPriority, TicketStatus } from '../../../core/contracts/supportConstants';
import type { BadgeTone } from '../../components/ui/Badge';

/** The description preview in the ticket list: at most 100 characters (docs/rules.md#support). */
export function preview(text: string, max = 100): string {
  const chars = [...text];
  return chars.length > max ? `${chars.slice(0, max).join('').trimEnd()}…` : text;
}

export const PRIORITY_TONE: Record<TicketPriority, BadgeTone> = { low: 'neutral', normal: 'brand', high: 'warning', urgent: 'danger' };
export const STATUS_TONE: Record<TicketStatus, BadgeTone> = { open: 'brand', in_progress: 'warning', resolved: 'success', closed: 'neutral' };

/** The badge of a ticket: "answered" while the team wrote last on an open ticket, else its status (docs/rules.md#support). */
export const ticketBadge = (ticket: { status: TicketStatus; answered: boolean }): { key: string; tone: BadgeTone } =>
  ticket.answered ? { key: 'status.answered', tone: 'success' } : { key: `status.${ticket.status}`, tone: STATUS_TONE[ticket.status] };
