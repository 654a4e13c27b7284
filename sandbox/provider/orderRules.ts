import Big from 'big.js';
import { chargeFor, v2ChargeFor, type SandboxCatalog, type SandboxService } from './catalog';
import type { OrderBook } from './orders';

/** A refusal of an order, with the QQTube message id the sandbox uses for it. */
export interface Refusal { id: number; message: string }

/** An accepted order; `quantity` is the whole (for a drip-feed, `runs` × the quantity of one run). */
export interface AcceptedOrder {
  service: SandboxService;
  quantity: number;
  params: Record<string, string>;
  charge: string;
  runs?: number;
  interval?: number;
}

/** The words of an SMM v2 panel for an order on a link it is still working on. */
export const ACTIVE_LINK_REFUSAL = 'You have active order with this link. Please wait until order being completed.';

/** A panel's ordinary refusal of an order it would otherwise take (`refuseEvery`). */
export const ORDINARY_REFUSAL = 'Service temporarily unavailable';

/** The words of a PerfectPanel panel (and of the sandbox's QQTube-style API) for a balance too short for the order. */
export const NO_FUNDS_REFUSAL = 'Not enough funds on balance';

/**
 * Every `every`-th order that passes every check is refused with `ORDINARY_REFUSAL` (0: none),
 * counted from the start or the last `restart`, so the refusals come at the same turns each run.
 */
export class RefusalTurns {
  private count = 0;
  private n = 0;
  constructor(every = 0) {
    this.set(every);
  }

  get every(): number {
    return this.n;
  }

  /** Refuses every `every`-th order from now on (0: none). */
  set(every: number): void {
    if (!Number.isInteger(every) || every < 0) throw new Error(`refuseEvery must be a whole number ≥ 0, got ${every}`);
    this.n = every;
    this.count = 0;
  }

  /** Counts an order that would be taken; true when it is the one to refuse. */
  take(): boolean {
    if (this.n <= 0) return false;
    this.count++;
    return this.count % this.n === 0;
  }

  restart(): void {
    this.count = 0;
  }
}

export const DRIP_MAX_RUNS = 1000;
export const DRIP_MAX_INTERVAL = 60 * 24 * 30;

/** Fields each v2 order form needs (v2 catalogues carry no field list). */
const V2_FIELDS: Record<string, string[]> = {
  'Custom Comments': ['comments'],
  'Mentions Custom List': ['usernames'],
  Poll: ['answer_number'],
};

const lines = (text: string | undefined) => (text ?? '').split('\n').filter((l) => l.trim()).length;

/**
 * Checks an order the way a panel does: service, link (loosely: it must start with http),
 * quantity bounds (and the increment for QQTube), required fields, then funds (none when the
 * balance is unlimited), then whether this order's turn is to be refused (`turns`).
 *
 * QQTube checks every required field of the service. v2 only knows the fields its order form
 * type implies (e.g. `comments`); other required fields get their first option or stay empty,
 * and a missing quantity is the number of lines of the comments/usernames list. v2 also takes a
 * drip-feed (`runs` of `quantity` each, one every `interval` minutes; runs of 0 or 1, or values
 * that are not numbers, make a plain order) for services that drip-feed, charges rate × quantity
 * / 1000 in 5 decimals, and refuses a second order of a service on a link while the first is
 * still under way, as PerfectPanel does.
 */
export function checkOrder(
  catalog: SandboxCatalog,
  book: OrderBook,
  protocol: 'qqtube' | 'smm-v2',
  input: { serviceId?: string; link?: string; quantity?: string; params: Record<string, string>; runs?: string; interval?: string },
  turns?: RefusalTurns,
): { ok: AcceptedOrder } | { refused: Refusal } {
  const refuse = (id: number, message: string) => ({ refused: { id, message } });
  if (!input.serviceId) return refuse(30, protocol === 'qqtube' ? 'Service ID not provided!' : 'Incorrect service ID');
  const service = catalog.byId.get(input.serviceId);
  if (!service) return refuse(31, 'Incorrect service ID');
  if (!input.link) return refuse(40, protocol === 'qqtube' ? 'URL not provided!' : 'Incorrect link');
  if (!/^https?:\/\/\S+$/i.test(input.link.trim())) return refuse(41, 'Incorrect link');

  const fields = service.wire.params;
  const v2Fields = V2_FIELDS[service.v2Type] ?? [];
  let quantityText = input.quantity?.trim();
  if (!quantityText && protocol === 'smm-v2' && v2Fields.length) {
    quantityText = String(lines(input.params[v2Fields[0]!]));
  }
  if (!quantityText) return refuse(50, protocol === 'qqtube' ? 'Quantity not provided!' : 'Incorrect request');
  const quantity = Number(quantityText);
  if (!Number.isInteger(quantity)) return refuse(50, protocol === 'qqtube' ? 'Incorrect quantity' : 'Incorrect request');
  if (quantity < service.minimum) return refuse(51, `Quantity less than minimal ${service.minimum}`);
  if (quantity > service.maximum) return refuse(52, `Quantity more than maximum ${service.maximum}`);
  if (protocol === 'qqtube' && quantity % service.increment !== 0) {
    return refuse(53, `Quantity must be a multiple of ${service.increment}`);
  }

  const params: Record<string, string> = {};
  for (const field of fields) {
    const value = input.params[field.field_name]?.trim() ?? '';
    const required = /\brequired\b/.test(field.field_validators);
    const checked = protocol === 'qqtube' || v2Fields.includes(field.field_name);
    if (!value) {
      if (required && checked) return refuse(60, `${field.field_label} is required`);
      if (required) params[field.field_name] = field.options[0]?.value ?? '';
      continue;
    }
    if (field.field_type === 'dropdown' && !field.options.some((o) => o.value === value)) {
      return refuse(61, `Invalid value for ${field.field_label}`);
    }
    params[field.field_name] = value;
  }

  let drip: { runs: number; interval: number } | undefined;
  const runsText = input.runs?.trim() ?? '';
  const intervalText = input.interval?.trim() ?? '';
  if (protocol === 'smm-v2' && /^\d{1,6}$/.test(runsText) && /^\d{1,6}$/.test(intervalText) && Number(runsText) > 1) {
    if (service.wire.is_drip !== '1') return refuse(54, 'Drip-feed is not available for this service');
    drip = { runs: Number(runsText), interval: Number(intervalText) };
    if (drip.runs > DRIP_MAX_RUNS || drip.interval < 1 || drip.interval > DRIP_MAX_INTERVAL) return refuse(54, 'Incorrect request');
  }
  const total = quantity * (drip?.runs ?? 1);

  if (protocol === 'smm-v2' && book.activeOrder(service.id, input.link)) return refuse(42, ACTIVE_LINK_REFUSAL);
  const charge = protocol === 'smm-v2' ? v2ChargeFor(service, total) : chargeFor(service, total);
  if (!book.unlimited && new Big(charge).gt(book.balance(5))) return refuse(70, NO_FUNDS_REFUSAL);
  if (turns?.take()) return refuse(90, ORDINARY_REFUSAL);
  return { ok: { service, quantity: total, params, charge, ...drip } };
}
