import { toQqtubeListItem, type SandboxCatalog } from './catalog';
import { checkOrder, type RefusalTurns } from './orderRules';
import type { OrderBook, OrderView, SandboxStatus } from './orders';

/**
 * QQTube-style endpoint (`/v1-api`): `api_key` and `action` as parameters; replies
 * `{ status: "success" | "error", messages: [{ id, message }], … }` with numbers as strings.
 * Payloads travel under `data`. Successful writes carry message id 100. A wrong key is
 * answered 401 with the same error envelope.
 */

export interface ApiReply { status: number; body: unknown }
export interface ApiContext {
  /** The catalogue at this provider's prices (replaced when its price factor changes). */
  catalog: SandboxCatalog;
  book: OrderBook;
  apiKey: string;
  /** Which orders are refused in turn (`refuseEvery`). */
  turns: RefusalTurns;
}

/** Status ids follow the public client's mapping; 6/7/4 are the sandbox's own for partial, canceled, error. */
const STATUS: Record<SandboxStatus, { id_status: string; name: string; type: string; description: string }> = {
  pending: { id_status: '2', name: 'Pending', type: 'active', description: 'Waiting to start' },
  processing: { id_status: '2', name: 'Pending', type: 'active', description: 'Waiting to start' },
  in_progress: { id_status: '3', name: 'In progress', type: 'active', description: 'Delivery is running' },
  completed: { id_status: '1', name: 'Completed', type: 'success', description: 'Delivered in full' },
  partial: { id_status: '6', name: 'Partial', type: 'error', description: 'Delivered in part; the rest was refunded' },
  cancelled: { id_status: '7', name: 'Canceled', type: 'error', description: 'Canceled and refunded' },
  refunded: { id_status: '8', name: 'Refunded', type: 'error', description: 'Refunded' },
  stopped: { id_status: '19', name: 'Stopped', type: 'error', description: 'Stopped by the provider' },
  error: { id_status: '4', name: 'Error', type: 'error', description: 'Failed' },
};

const ok = (extra: Record<string, unknown>, message?: string): ApiReply => ({
  status: 200,
  body: { status: 'success', messages: message ? [{ id: 100, message }] : [], ...extra },
});
const fail = (id: number, message: string, status = 200): ApiReply => ({
  status,
  body: { status: 'error', messages: [{ id, message }] },
});

/** The protocol's refusal, used by the fault injection. */
export const qqtubeRefusal = (message: string): ApiReply => fail(90, message);

/** "2024-05-01 12:30:00" in UTC, the way the provider prints dates. */
const providerDate = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
const shortUrl = (link: string) => link.replace(/^https?:\/\//i, '').replace(/^www\./i, '');

function tracking(o: OrderView) {
  return {
    id_service_submission: o.id,
    id_service: o.serviceId,
    short_url: shortUrl(o.link),
    long_url: o.link,
    wanted_count: String(o.quantity),
    start_count: String(o.reportedStartCount),
    current_count: String(o.reportedStartCount ? o.currentCount : 0),
    sent_count: String(o.delivered),
    total_cost: o.charge,
    refund_total: o.refund,
    refund_time: Number(o.refund) > 0 ? providerDate(o.createdAt + o.lifetimeMs) : null,
    date_added: providerDate(o.createdAt),
    status: STATUS[o.status],
  };
}

export function handleQqtube(params: Record<string, string>, ctx: ApiContext): ApiReply {
  if (params.api_key !== ctx.apiKey) return fail(10, 'Invalid API key', 401);
  const { catalog, book } = ctx;
  switch (params.action) {
    case 'services':
      return ok({ data: catalog.services.map(toQqtubeListItem) });

    case 'service': {
      if (!params.id_service) return fail(30, 'Service ID not provided!');
      const s = catalog.byId.get(params.id_service);
      return s ? ok({ data: s.wire }) : fail(31, 'Incorrect service ID');
    }

    case 'add': {
      const { api_key: _k, action: _a, id_service, url, quantity, ...extra } = params;
      const checked = checkOrder(catalog, book, 'qqtube', { serviceId: id_service, link: url, quantity, params: extra }, ctx.turns);
      if ('refused' in checked) return fail(checked.refused.id, checked.refused.message);
      const { service, quantity: q, params: p, charge } = checked.ok;
      const order = book.create({ via: 'qqtube', serviceId: service.id, link: url!.trim(), quantity: q, params: p, charge });
      return ok({ id_service_submission: order.id }, 'Order has been placed');
    }

    case 'stats': {
      if (!params.id_service_submission) return fail(80, 'Submission ID not provided!');
      const o = book.get(params.id_service_submission);
      return o ? ok({ data: tracking(o) }) : fail(81, 'Submission not found');
    }

    case 'submissions': {
      const limit = Math.min(500, Math.max(1, Number(params.limit) || 100));
      return ok({
        data: book.list(limit).map((o) => {
          const t = tracking(o);
          return {
            id_service_submission: t.id_service_submission,
            short_url: t.short_url,
            id_status: t.status.id_status,
            id_service: t.id_service,
            start_count: t.start_count,
            wanted_count: t.wanted_count,
            current_count: t.current_count,
            total_cost: t.total_cost,
            date_added: t.date_added,
          };
        }),
      });
    }

    case 'funds':
      return ok({ funds: book.balance() });

    default:
      return fail(20, 'Invalid action');
  }
}
