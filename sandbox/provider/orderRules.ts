import Big from 'big.js';
import { chargeFor, type SandboxCatalog, type SandboxService } from './catalog';
import type { OrderBook } from './orders';

/** A refusal of an order, with the QQTube message id the sandbox uses for it. */
export interface Refusal { id: number; message: string }

export interface AcceptedOrder { service: SandboxService; quantity: number; params: Record<string, string>; charge: string }

/** Fields each v2 order form needs (v2 catalogues carry no field list). */
const V2_FIELDS: Record<string, string[]> = {
  'Custom Comments': ['comments'],
  'Mentions Custom List': ['usernames'],
  Poll: ['answer_number'],
};

const lines = (text: string | undefined) => (text ?? '').split('\n').filter((l) => l.trim()).length;

/**
 * Checks an order the way a panel does: service, link (loosely: it must start with http),
 * quantity bounds (and the increment for QQTube), required fields, then funds.
 *
 * QQTube checks every required field of the service. v2 only knows the fields its order form
 * type implies (e.g. `comments`); other required fields get their first option or stay empty,
 * and a missing quantity is the number of lines of the comments/usernames list.
 */
export function checkOrder(
  catalog: SandboxCatalog,
  book: OrderBook,
  protocol: 'qqtube' | 'smm-v2',
  input: { serviceId?: string; link?: string; quantity?: string; params: Record<string, string> },
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
  if (!Number.isInteger(quantity)) return refuse(50, 'Incorrect quantity');
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

  const charge = chargeFor(service, quantity);
  if (new Big(charge).gt(book.balance())) return refuse(70, 'Not enough funds on balance');
  return { ok: { service, quantity, params, charge } };
}
