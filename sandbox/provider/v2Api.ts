import Big from 'big.js';
import { toV2Service } from './catalog';
import { checkOrder } from './orderRules';
import { decimalsOf, isActive, type OrderView, type SandboxStatus } from './orders';
import type { ApiContext, ApiReply } from './qqtubeApi';

/**
 * PerfectPanel-style "API v2" endpoint (`/api/v2`): `key` and `action` as form fields; every
 * answer is HTTP 200 JSON, errors are `{ error }` in the panels' words. Numbers are strings, as
 * most panels send them; money has 5 decimals (`charge` is what the order costs after what was
 * given back, `currency` USD).
 */

const MAX_IDS = 100;

const STATUS_TEXT: Record<SandboxStatus, string> = {
  pending: 'Pending',
  processing: 'Processing',
  in_progress: 'In progress',
  completed: 'Completed',
  partial: 'Partial',
  cancelled: 'Canceled',
  refunded: 'Refunded',
  stopped: 'Canceled',
  error: 'Canceled',
};

const reply = (body: unknown): ApiReply => ({ status: 200, body });
const error = (message: string) => reply({ error: message });

/** The protocol's refusal, used by the fault injection. */
export const v2Refusal = (message: string): ApiReply => error(message);

const orderStatus = (o: OrderView) => ({
  charge: new Big(o.charge).minus(o.refund).toFixed(decimalsOf(o.via)),
  start_count: String(o.reportedStartCount),
  status: STATUS_TEXT[o.status],
  remains: String(o.remains),
  currency: 'USD',
});

/** `orders` (comma list) or `order`, deduplicated; null when more than 100 ids. */
function idsOf(params: Record<string, string>): string[] | null {
  const text = params.orders ?? params.order ?? '';
  const ids = [...new Set(text.split(',').map((s) => s.trim()).filter(Boolean))];
  return ids.length > MAX_IDS ? null : ids;
}

export function handleV2(params: Record<string, string>, ctx: ApiContext): ApiReply {
  if (params.key !== ctx.apiKey) return error('Incorrect API key');
  const { catalog, book } = ctx;
  switch (params.action) {
    case 'services':
      return reply(catalog.services.map(toV2Service));

    case 'add': {
      const { key: _k, action: _a, service, link, quantity, runs, interval, ...extra } = params;
      const checked = checkOrder(catalog, book, 'smm-v2', { serviceId: service, link, quantity, params: extra, runs, interval }, ctx.turns);
      if ('refused' in checked) return error(checked.refused.message);
      const { service: s, quantity: q, params: p, charge, runs: r, interval: i } = checked.ok;
      const order = book.create({ via: 'smm-v2', serviceId: s.id, link: link!.trim(), quantity: q, params: p, charge, runs: r, interval: i });
      return reply({ order: Number(order.id) });
    }

    case 'status': {
      if (params.order && !params.orders) {
        const o = book.get(params.order.trim());
        return o ? reply(orderStatus(o)) : error('Incorrect order ID');
      }
      const ids = idsOf(params);
      if (!ids?.length) return error('Incorrect request');
      return reply(
        Object.fromEntries(ids.map((id) => {
          const o = book.get(id);
          return [id, o ? orderStatus(o) : { error: 'Incorrect order ID' }];
        })),
      );
    }

    case 'refill': {
      const ids = idsOf(params);
      if (!ids?.length) return error('Incorrect request');
      const results = ids.map((id) => {
        const o = book.get(id);
        if (!o) return { order: Number(id) || id, refill: { error: 'Incorrect order ID' } };
        const service = catalog.byId.get(o.serviceId);
        if (!service?.refill || (o.status !== 'completed' && o.status !== 'partial')) {
          return { order: Number(id), refill: { error: 'Refill is not available for this order' } };
        }
        return { order: Number(id), refill: Number(book.addRefill(id).id) };
      });
      if (params.order && !params.orders) {
        const only = results[0]!;
        return typeof only.refill === 'number' ? reply({ refill: only.refill }) : reply(only.refill);
      }
      return reply(results);
    }

    case 'refill_status': {
      const text = params.refills ?? params.refill ?? '';
      const ids = [...new Set(text.split(',').map((s) => s.trim()).filter(Boolean))];
      if (!ids.length || ids.length > MAX_IDS) return error('Incorrect request');
      if (params.refill && !params.refills) {
        const r = book.getRefill(ids[0]!);
        return r ? reply({ status: r.status }) : error('Incorrect refill ID');
      }
      return reply(
        ids.map((id) => {
          const r = book.getRefill(id);
          return { refill: Number(id) || id, status: r ? r.status : { error: 'Incorrect refill ID' } };
        }),
      );
    }

    case 'cancel': {
      const ids = idsOf(params);
      if (!ids?.length) return error('Incorrect request');
      return reply(
        ids.map((id) => {
          const o = book.get(id);
          if (!o) return { order: Number(id) || id, cancel: { error: 'Incorrect order ID' } };
          const service = catalog.byId.get(o.serviceId);
          if (!service?.cancel || !isActive(o.status)) {
            return { order: Number(id), cancel: { error: 'Cancel is not available for this order' } };
          }
          // Whatever was delivered stays: the order ends partial, or cancelled if nothing was.
          book.setState(id, o.delivered > 0 ? 'partial' : 'cancelled', o.delivered);
          return { order: Number(id), cancel: 1 };
        }),
      );
    }

    case 'balance':
      return reply({ balance: book.balance(5), currency: 'USD' });

    default:
      return error('Incorrect request');
  }
}
