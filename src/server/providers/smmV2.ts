import { z } from 'zod';
import { refillDaysOf, refillStatusFromText, type RefillStatus } from '../../core/refill';
import { catalogServiceSchema, type CatalogService, type ServiceParam } from '../../core/catalog';
import {
  chunk,
  collectBatches,
  looseBool,
  looseDecimal,
  looseId,
  looseInt,
  optionalInt,
  optionalText,
  keepKnown,
  parseReply,
  rateLimited,
  refusal,
  requestJson,
} from './http';
import { guessPlatform, guessType, mapV2Status } from './mapping';
import {
  ProviderClient,
  ProviderError,
  type PerOrderResult,
  type ProviderOptions,
  type ProviderOrderRequest,
  type ProviderOrderState,
  type SmmProvider,
} from './types';

/** The most ids one v2 call takes. */
export const V2_BATCH = 100;

/** A panel's own limiter answering `{ error }` (with HTTP 200 or 429): the call was not processed. */
const TOO_MANY_REQUESTS = /too many requests|rate limit (exceeded|reached)/i;

// --- wire format ------------------------------------------------------------------------------

const serviceSchema = z
  .object({
    service: looseId,
    name: z.coerce.string(),
    type: optionalText,
    category: optionalText,
    rate: looseDecimal,
    min: looseInt,
    max: looseInt,
    refill: looseBool,
    cancel: looseBool,
    dripfeed: looseBool,
    desc: optionalText,
    description: optionalText,
  })
  .loose();

const errorItem = z.object({ error: z.coerce.string() }).loose();

const orderStateSchema = z
  .object({ status: z.coerce.string(), start_count: optionalInt, remains: optionalInt, charge: optionalText, currency: optionalText })
  .loose();

const statusReplySchema = z.record(z.string(), z.unknown());

const refillReplySchema = z.array(
  z.object({ order: looseId, refill: z.union([errorItem, looseId]) }).loose(),
);

const cancelReplySchema = z.array(
  z.object({ order: looseId, cancel: z.union([errorItem, z.unknown()]) }).loose(),
);

const refillStatusReplySchema = z.array(
  z.object({ refill: looseId, status: z.union([errorItem, z.coerce.string()]) }).loose(),
);

const balanceSchema = z.object({ balance: looseDecimal, currency: optionalText }).loose();

/**
 * Extra inputs implied by a v2 service type (v2 catalogues describe no fields). Types not
 * listed need only link and quantity.
 */
const PARAMS_BY_TYPE: [RegExp, ServiceParam][] = [
  [/custom comments/, textarea('comments', 'Comments (one per line)')],
  [/mentions custom list/, textarea('usernames', 'Usernames (one per line)')],
  [/mentions hashtag/, text('hashtag', 'Hashtag')],
  [/mentions user followers|comment likes/, text('username', 'Username')],
  [/mentions media likers/, text('media', 'Media URL')],
  [/poll/, text('answer_number', 'Answer number')],
];

function textarea(fieldName: string, fieldLabel: string): ServiceParam {
  return { fieldName, fieldLabel, fieldType: 'textarea', placeholder: '', description: '', required: true, options: [] };
}
function text(fieldName: string, fieldLabel: string): ServiceParam {
  return { ...textarea(fieldName, fieldLabel), fieldType: 'text' };
}

// --- adapter ----------------------------------------------------------------------------------

/**
 * PerfectPanel-style "SMM Panel API v2": every call a form POST with `key` and `action`;
 * errors are `{ error }` with HTTP 200.
 *
 * Catalogue normalization: `rate` (per 1000) becomes one tier { minimum: min, maximum: max,
 * price: rate, pricingPer: 1000 }; the increment is 1 (v2 has none); the platform is guessed
 * from the category, then the name (see `guessPlatform`), and the type name from the name,
 * then the category (see `guessType`), since v2 `type` only tells the order form.
 */
export class SmmV2Provider extends ProviderClient implements SmmProvider {
  readonly protocol = 'smm-v2' as const;
  /** v2 `add` takes `runs` and `interval`: a drip-feed is one order the panel runs. */
  readonly dripFeed = true;
  constructor(options: ProviderOptions) {
    // A pass over thousands of active orders is 100 ids per call; twenty calls at once (spaced by
    // the pacer when the provider has a rate limit) ask 10,000 orders in a few seconds.
    super(options, 20);
  }

  async services(): Promise<CatalogService[]> {
    const body = await this.call('services', {}, this.servicesTimeoutMs);
    const list = parseReply(z.array(z.unknown()), body, 'services');
    return keepKnown(list, toCatalogService);
  }

  /** v2 has no single-service call: the service is looked up in the catalogue. */
  async service(id: string): Promise<CatalogService | null> {
    return (await this.services()).find((s) => s.id === id) ?? null;
  }

  /**
   * See SmmProvider.add: `no_answer` and `bad_reply` leave the order's existence unknown. A
   * drip-feed is sent as `runs` and `interval` beside the quantity of one run; the panel then
   * reports it as one order of the whole quantity (`remains` counts every run).
   */
  async add(order: ProviderOrderRequest): Promise<{ providerOrderId: string }> {
    const body = await this.call('add', {
      ...order.params,
      service: order.serviceId,
      link: order.link,
      quantity: String(order.quantity),
      ...(order.dripFeed ? { runs: String(order.dripFeed.runs), interval: String(order.dripFeed.interval) } : {}),
    });
    return { providerOrderId: parseReply(z.object({ order: looseId }).loose(), body, 'add').order };
  }

  /** Batches of 100 ids per `status` call (`orders` form, also for a single id). */
  async status(ids: string[]): Promise<PerOrderResult<ProviderOrderState>> {
    const batches = chunk([...new Set(ids)], V2_BATCH).map((batch) => async () => {
      const body = await this.call('status', { orders: batch.join(',') });
      const reply = parseReply(statusReplySchema, body, 'status');
      const out: PerOrderResult<ProviderOrderState> = new Map();
      for (const id of batch) {
        // An entry of unexpected shape is left out, like an id the reply does not mention.
        const failed = errorItem.safeParse(reply[id]);
        const state = orderStateSchema.safeParse(reply[id]);
        if (failed.success) out.set(id, { error: failed.data.error });
        else if (state.success) out.set(id, toOrderState(state.data));
      }
      return out;
    });
    return collectBatches(batches, this.concurrency);
  }

  async balance(): Promise<{ amount: string; currency: string }> {
    const reply = parseReply(balanceSchema, await this.call('balance', {}), 'balance');
    return { amount: reply.balance, currency: reply.currency ?? 'USD' };
  }

  /** v2 cannot list or search orders, so an unanswered `add` cannot be looked up. */
  async findOrder(): Promise<'unsupported'> {
    return 'unsupported';
  }

  async refill(ids: string[]): Promise<PerOrderResult<{ refillId: string }>> {
    const batches = chunk([...new Set(ids)], V2_BATCH).map((batch) => async () => {
      const reply = parseReply(refillReplySchema, await this.call('refill', { orders: batch.join(',') }), 'refill');
      const out: PerOrderResult<{ refillId: string }> = new Map();
      for (const r of reply) out.set(r.order, typeof r.refill === 'string' ? { refillId: r.refill } : r.refill);
      return out;
    });
    return collectBatches(batches, this.concurrency);
  }

  /** Batches of 100 refill ids per `refill_status` call (`refills` form). */
  async refillStatus(refillIds: string[]): Promise<PerOrderResult<{ status: RefillStatus; raw: string }>> {
    const batches = chunk([...new Set(refillIds)], V2_BATCH).map((batch) => async () => {
      const reply = parseReply(refillStatusReplySchema, await this.call('refill_status', { refills: batch.join(',') }), 'refill_status');
      const out: PerOrderResult<{ status: RefillStatus; raw: string }> = new Map();
      for (const r of reply) {
        const s = r.status;
        if (typeof s === 'string') out.set(r.refill, { status: refillStatusFromText(s), raw: s });
        else out.set(r.refill, s);
      }
      return out;
    });
    return collectBatches(batches, this.concurrency);
  }

  async cancel(ids: string[]): Promise<PerOrderResult<{ cancelled: true }>> {
    const batches = chunk([...new Set(ids)], V2_BATCH).map((batch) => async () => {
      const reply = parseReply(cancelReplySchema, await this.call('cancel', { orders: batch.join(',') }), 'cancel');
      const out: PerOrderResult<{ cancelled: true }> = new Map();
      for (const r of reply) {
        const c = r.cancel;
        if (typeof c === 'object' && c !== null && 'error' in c) out.set(r.order, { error: String(c.error) });
        else if (c === 1 || c === '1' || c === true) out.set(r.order, { cancelled: true });
        else out.set(r.order, { error: 'not cancelled' });
      }
      return out;
    });
    return collectBatches(batches, this.concurrency);
  }

  /**
   * Sends one action; a top-level `{ error }` is a refusal (`no_funds` in the words of a short
   * balance), or `rate_limited` when it says "Too many requests" (its `Retry-After` honoured).
   * Returns the reply body.
   */
  private async call(action: string, params: Record<string, string>, timeoutMs = this.timeoutMs): Promise<unknown> {
    const { httpStatus, body, retryAfter } = await requestJson({
      url: this.options.url,
      pacer: this.options.pacer,
      method: 'POST',
      params: { ...params, key: this.options.key, action },
      timeoutMs,
    });
    if (typeof body === 'object' && body !== null && !Array.isArray(body) && 'error' in body) {
      const error = (body as { error: unknown }).error;
      if (error !== null && error !== undefined && error !== '') {
        const text = typeof error === 'string' ? error : JSON.stringify(error);
        if (TOO_MANY_REQUESTS.test(text)) throw rateLimited([text], retryAfter, this.options.pacer);
        throw refusal([text]);
      }
    }
    if (httpStatus >= 400) throw new ProviderError('refused', [`HTTP ${httpStatus}`]);
    return body;
  }
}

function toCatalogService(raw: unknown): CatalogService | null {
  const parsed = serviceSchema.safeParse(raw);
  if (!parsed.success) return null;
  const s = parsed.data;
  const formType = (s.type ?? 'Default').toLowerCase();
  const candidate = {
    id: s.service,
    platform: guessPlatform(s.category, s.name),
    name: s.name,
    type: guessType(s.name, s.category),
    description: s.desc ?? s.description,
    example: null,
    amountMinimum: Math.max(1, s.min),
    amountIncrement: 1,
    tiers: [{ minimum: Math.max(0, s.min), maximum: s.max, price: s.rate, pricingPer: 1000 }],
    params: PARAMS_BY_TYPE.filter(([re]) => re.test(formType)).map(([, p]) => p),
    refill: s.refill,
    refillDays: s.refill ? refillDaysOf(s.name, s.desc ?? s.description) : null,
    cancel: s.cancel,
    dripfeed: s.dripfeed,
  };
  const checked = catalogServiceSchema.safeParse(candidate);
  return checked.success ? checked.data : null;
}

function toOrderState(s: z.infer<typeof orderStateSchema>): ProviderOrderState {
  return {
    status: mapV2Status(s.status),
    startCount: s.start_count,
    remains: s.remains,
    currentCount: null,
    delivered: null,
    raw: s.status,
    // As the panel wrote it: the sync reads it exactly, or not at all.
    charge: s.charge === null ? null : s.charge.trim(),
    currency: s.currency === null ? null : s.currency.trim(),
  };
}
