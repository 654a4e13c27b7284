import type { HistoryQuery } from '../../../core/contracts/orders';
import { HISTORY_SEARCH_MAX } from '../../../core/orderStatus';
import { HISTORY_TABS, type HistoryTab } from '../../../core/orderStatus';

/**
 * The order history's tab, search and page as the dashboard's address carries them
 * (`?status=active&q=…&page=2#history`), so a reload or a shared link opens the same list. What
 * the address cannot mean falls back to its default: every order, no search, the first page.
 */
export function historyFromAddress(params: URLSearchParams): HistoryQuery {
  const status = params.get('status');
  const q = (params.get('q') ?? '').trim().slice(0, HISTORY_SEARCH_MAX);
  const page = Number(params.get('page') ?? '1');
  return {
    status: (HISTORY_TABS as readonly string[]).includes(status ?? '') ? (status as HistoryTab) : 'all',
    ...(q ? { q } : {}),
    page: Number.isSafeInteger(page) && page >= 1 && page <= 10_000 ? page : 1,
  };
}

/** The address's query with the history's choices written in (defaults left out); other parameters kept. */
export function withHistory(params: URLSearchParams, next: HistoryQuery): URLSearchParams {
  const out = new URLSearchParams(params);
  for (const key of ['status', 'q', 'page']) out.delete(key);
  if (next.status !== 'all') out.set('status', next.status);
  if (next.q) out.set('q', next.q);
  if (next.page > 1) out.set('page', String(next.page));
  return out;
}
