/**
 * A top-up's reference starts with this (the gateway's "order id" for it): the return pages call
 * it a payment number, not an order number, and offer no order tracking for it. Free of zod: the
 * public return pages read it (docs/decisions/0022-islands-on-demand.md).
 */
export const TOP_UP_REFERENCE_PREFIX = 'balance-';
export const isTopUpReference = (reference: string) => reference.startsWith(TOP_UP_REFERENCE_PREFIX);
