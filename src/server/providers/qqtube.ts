import Big from 'big.js';
import { z } from 'zod';
import { catalogServiceSchema, KNOWN_PLATFORMS, type CatalogService } from '../../core/catalog';
import {
  looseBool,
  looseDecimal,
  looseId,
  looseInt,
  mapLimit,
  normalizeLink,
  optionalInt,
  optionalText,
  keepKnown,
  parseReply,
  refusal,
  requestJson,
} from './http';
import { guessPlatform, mapQqtubeStatus } from './mapping';
import {
  isRefusal,
  ProviderClient,
  ProviderError,
  type FindOrderQuery,
  type PerOrderResult,
  type ProviderOptions,
  type ProviderOrderRequest,
  type ProviderOrderState,
  type SmmProvider,
} from './types';

// --- wire format ------------------------------------------------------------------------------

const messageSchema = z.union([
  z.object({ id: optionalInt, message: optionalText }).loose(),
  z.string().transform((message) => ({ id: null, message })),
]);

/** Every reply: `status` plus optional `messages` (a list, or an object of messages) or `message`. */
const envelopeSchema = z
  .object({
    status: z.coerce.string(),
    messages: z.preprocess(
      (v) => (v == null ? [] : Array.isArray(v) ? v : typeof v === 'object' ? Object.values(v) : [v]),
      z.array(messageSchema),
    ),
    message: optionalText,
  })
  .loose();

const optionSchema = z.object({ name: z.coerce.string(), value: z.coerce.string() }).loose();

const paramSchema = z
  .object({
    field_name: z.coerce.string().min(1),
    field_label: optionalText,
    field_type: optionalText,
    field_placeholder: optionalText,
    field_descr: optionalText,
    field_validators: z
      .union([z.string(), z.array(z.coerce.string()), z.null(), z.undefined()])
      .transform((v) => (Array.isArray(v) ? v.join('|') : (v ?? ''))),
    options: z.preprocess((v) => (Array.isArray(v) ? v : []), z.array(optionSchema)),
  })
  .loose();

const tierSchema = z
  .object({ minimum: looseInt, maximum: looseInt, price: looseDecimal, pricing_per: looseInt })
  .loose();

const serviceSchema = z
  .object({
    id_service: looseId,
    platform: optionalText,
    public_name: z.coerce.string(),
    type_name: optionalText,
    description: optionalText,
    example: optionalText,
    amount_minimum: looseInt,
    amount_increment: optionalInt,
    prices: z.preprocess((v) => v ?? [], z.array(tierSchema)),
    params: z.preprocess((v) => v ?? [], z.array(paramSchema)),
    is_drip: looseBool.optional(),
  })
  .loose();

const statsSchema = z
  .object({
    wanted_count: optionalInt,
    start_count: optionalInt,
    current_count: optionalInt,
    sent_count: optionalInt,
    total_cost: optionalText,
    refund_total: optionalText,
    status: z.object({ id_status: looseInt, name: optionalText }).loose(),
  })
  .loose();

const submissionSchema = z
  .object({
    id_service_submission: looseId,
    short_url: optionalText,
    long_url: optionalText,
    id_service: looseId,
    wanted_count: optionalInt,
    date_added: optionalText,
  })
  .loose();

const fundsSchema = z.object({ funds: looseDecimal }).loose();

/** Messages that mean "no such service" in a refusal of the `service` action. */
const SERVICE_NOT_FOUND = /not found|incorrect service|invalid service|does not exist|no service/i;

const ORDER_NOT_PLACED = 'Sifariş verilmədi. Yenidən cəhd edin.';
const NO_SUBMISSION_ID = 'Sifariş ID alınmadı. Yenidən cəhd edin.';

// --- adapter ----------------------------------------------------------------------------------

/**
 * QQTube-style provider: one URL, the key as `api_key`, the call as `action`. `services` goes as
 * GET with query parameters, every other action as a form-encoded POST (the provider answered a
 * multipart POST with 405). A reply counts as refused when `status` is not "success" or when any
 * message id is not 100 (docs/rules.md#orders); a refusal saying the balance is short is
 * `no_funds` (`NO_FUNDS_WORDS`).
 *
 * The reference does not fix which key holds a reply's payload, so lists and objects are read
 * from `data` or from the key named after the action (`services`, `service`, `stats`,
 * `submissions`); QQTube gives no currency, so funds are taken as USD.
 */
export class QqtubeProvider extends ProviderClient implements SmmProvider {
  readonly protocol = 'qqtube' as const;
  /** The protocol has no drip-feed: a drip-feed is sent one run at a time. */
  readonly dripFeed = false;
  constructor(options: ProviderOptions) {
    super(options, 5);
  }

  async services(): Promise<CatalogService[]> {
    const body = await this.call('services', {}, { method: 'GET', timeoutMs: this.servicesTimeoutMs });
    const list = parseReply(z.array(z.unknown()), payload(body, 'services'), 'services');
    return keepKnown(list, toCatalogService);
  }

  async service(id: string): Promise<CatalogService | null> {
    let body: Record<string, unknown>;
    try {
      body = await this.call('service', { id_service: id });
    } catch (e) {
      if (e instanceof ProviderError && e.kind === 'refused' && e.messages.some((m) => SERVICE_NOT_FOUND.test(m))) {
        return null;
      }
      throw e;
    }
    const data = payload(body, 'service');
    if (data == null || (Array.isArray(data) && data.length === 0)) return null;
    const service = toCatalogService(Array.isArray(data) ? data[0] : data);
    if (!service) throw new ProviderError('bad_reply', ['unexpected service reply']);
    return service;
  }

  /**
   * See SmmProvider.add: `no_answer` and `bad_reply` leave the order's existence unknown. The
   * protocol has no drip-feed parameters (`dripFeed` is false): such a request is refused
   * unsent, so it is never delivered as one run.
   */
  async add(order: ProviderOrderRequest): Promise<{ providerOrderId: string }> {
    if (order.dripFeed) throw new ProviderError('refused', ['drip-feed orders are not sent through the QQTube-style API'], { note: 'provider_refused' });
    const body = await this.call('add', {
      ...order.params,
      id_service: order.serviceId,
      url: order.link,
      quantity: String(order.quantity),
    });
    const id = z.object({ id_service_submission: looseId }).safeParse(body);
    if (!id.success) throw new ProviderError('refused', [NO_SUBMISSION_ID], { note: 'provider_never_received' });
    return { providerOrderId: id.data.id_service_submission };
  }

  /** One `stats` call per id, at most `statusConcurrency` at once. */
  async status(ids: string[]): Promise<PerOrderResult<ProviderOrderState>> {
    const result: PerOrderResult<ProviderOrderState> = new Map();
    let firstError: ProviderError | undefined;
    let answered = 0;
    await mapLimit([...new Set(ids)], this.concurrency, async (id) => {
      try {
        const body = await this.call('stats', { id_service_submission: id });
        result.set(id, toOrderState(parseReply(statsSchema, payload(body, 'stats'), 'stats')));
        answered++;
      } catch (e) {
        if (!(e instanceof ProviderError)) throw e;
        if (isRefusal(e)) {
          result.set(id, { error: e.messages.join(', ') || 'refused' });
          answered++;
        } else {
          firstError ??= e;
        }
      }
    });
    if (answered === 0 && firstError) throw firstError;
    return result;
  }

  async balance(): Promise<{ amount: string; currency: string }> {
    const body = await this.call('funds', {});
    const data = isRecord(body.data) ? body.data : body;
    return { amount: parseReply(fundsSchema, data, 'funds').funds, currency: 'USD' };
  }

  /** QQTube-style providers have no refill or cancel calls. */
  async refill(): Promise<'unsupported'> {
    return 'unsupported';
  }

  async refillStatus(): Promise<'unsupported'> {
    return 'unsupported';
  }

  async cancel(): Promise<'unsupported'> {
    return 'unsupported';
  }

  /**
   * Looks through the latest 500 submissions for the same service, quantity and link (compared
   * without scheme, `www.` and trailing slash), added no earlier than `since`. The provider's
   * `date_added` carries no time zone, so it is read as UTC with 14 hours of slack either way;
   * among several candidates the newest is taken.
   */
  async findOrder(q: FindOrderQuery): Promise<{ providerOrderId: string } | null> {
    const body = await this.call('submissions', { limit: '500' });
    const rows = parseReply(z.array(z.unknown()), payload(body, 'submissions'), 'submissions');
    const link = normalizeLink(q.link);
    const excluded = new Set(q.excludeIds ?? []);
    const earliest = q.since.getTime() - 14 * 3600_000;
    let best: { id: string; at: number } | null = null;
    for (const raw of rows) {
      const row = submissionSchema.safeParse(raw);
      if (!row.success) continue;
      const r = row.data;
      if (r.id_service !== q.serviceId || r.wanted_count !== q.quantity) continue;
      if (excluded.has(r.id_service_submission)) continue;
      const urls = [r.short_url, r.long_url].filter((u): u is string => !!u).map(normalizeLink);
      if (!urls.includes(link)) continue;
      const at = parseProviderDate(r.date_added);
      if (at !== null && at < earliest) continue;
      const rank = at ?? Number.MAX_SAFE_INTEGER;
      if (!best || rank > best.at || (rank === best.at && Number(r.id_service_submission) > Number(best.id))) {
        best = { id: r.id_service_submission, at: rank };
      }
    }
    return best ? { providerOrderId: best.id } : null;
  }

  /** Sends one action and checks the envelope; returns the whole reply object. */
  private async call(
    action: string,
    params: Record<string, string>,
    opts: { method?: 'GET' | 'POST'; timeoutMs?: number } = {},
  ): Promise<Record<string, unknown>> {
    const { httpStatus, body } = await requestJson({
      url: this.options.url,
      pacer: this.options.pacer,
      method: opts.method ?? 'POST',
      params: { ...params, api_key: this.options.key, action },
      timeoutMs: opts.timeoutMs ?? this.timeoutMs,
    });
    const envelope = envelopeSchema.safeParse(body);
    if (!envelope.success || !isRecord(body)) {
      if (httpStatus >= 400) throw new ProviderError('refused', [`HTTP ${httpStatus}`]);
      throw new ProviderError('bad_reply', [`unexpected ${action} reply`], {
        cause: envelope.success ? undefined : envelope.error,
      });
    }
    const { status, messages, message } = envelope.data;
    const texts = messages.map((m) => m.message ?? '').filter(Boolean);
    const failed = status.toLowerCase() !== 'success' || messages.some((m) => m.id !== 100) || httpStatus >= 400;
    if (failed) {
      // The reference names no refusal for a short balance: its words tell it (`no_funds`).
      if (texts.length) throw refusal(texts);
      if (message != null) throw refusal([message]);
      if (action === 'add') throw new ProviderError('refused', [ORDER_NOT_PLACED], { note: 'provider_refused' });
      throw new ProviderError('refused', [`${action} failed (${status})`]);
    }
    return body;
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The payload of a reply: `data`, else the key named after the action. */
function payload(body: Record<string, unknown>, key: string): unknown {
  return body.data !== undefined ? body.data : body[key];
}

const FIELD_TYPES = { dropdown: 'dropdown', select: 'dropdown', textarea: 'textarea', text: 'text' } as const;

/** Wire service → CatalogService, or null when the entry cannot be normalized. */
function toCatalogService(raw: unknown): CatalogService | null {
  const parsed = serviceSchema.safeParse(raw);
  if (!parsed.success) return null;
  const s = parsed.data;
  const platformText = (s.platform ?? '').trim().toLowerCase();
  const platform = (KNOWN_PLATFORMS as readonly string[]).includes(platformText)
    ? platformText
    : guessPlatform(platformText) || platformText;
  const candidate = {
    id: s.id_service,
    platform,
    name: s.public_name,
    type: s.type_name ?? 'Other',
    description: s.description,
    example: s.example,
    amountMinimum: Math.max(1, s.amount_minimum),
    amountIncrement: Math.max(1, s.amount_increment ?? 1),
    tiers: s.prices.map((t) => ({
      minimum: t.minimum,
      maximum: t.maximum,
      price: t.price,
      pricingPer: t.pricing_per,
    })),
    params: s.params.map((p) => ({
      fieldName: p.field_name,
      fieldLabel: p.field_label ?? p.field_name,
      fieldType: FIELD_TYPES[(p.field_type ?? 'text').toLowerCase() as keyof typeof FIELD_TYPES] ?? 'text',
      placeholder: p.field_placeholder ?? '',
      description: p.field_descr ?? '',
      required: /\brequired\b/i.test(p.field_validators),
      options: p.options.map((o) => ({ name: o.name, value: o.value })),
    })),
    refill: false,
    cancel: false,
    dripfeed: s.is_drip ?? false,
  };
  const checked = catalogServiceSchema.safeParse(candidate);
  return checked.success ? checked.data : null;
}

function toOrderState(s: z.infer<typeof statsSchema>): ProviderOrderState {
  const name = s.status.name ?? '';
  const counted =
    s.current_count !== null && s.start_count !== null ? Math.max(0, s.current_count - s.start_count) : null;
  let delivered = s.sent_count ?? counted;
  if (delivered !== null && s.wanted_count !== null) delivered = Math.min(delivered, s.wanted_count);
  const remains = delivered !== null && s.wanted_count !== null ? Math.max(0, s.wanted_count - delivered) : null;
  return {
    status: mapQqtubeStatus(s.status.id_status, name),
    startCount: s.start_count,
    remains,
    currentCount: s.current_count,
    delivered,
    raw: `${s.status.id_status} ${name}`.trim(),
    charge: chargeOf(s.total_cost, s.refund_total),
    // The protocol names no currency; its amounts are USD (as `funds`).
    currency: null,
  };
}

const PLAIN_DECIMAL = /^\d+(?:\.(\d+))?$/;

/**
 * What the order costs after the provider's refunds: `total_cost` as written when nothing was
 * given back, else `total_cost − refund_total` exactly, with the decimals of the longer of the two.
 * Null when the cost is missing, either amount is not a plain decimal, or the refund exceeds it.
 */
function chargeOf(totalCost: string | null, refundTotal: string | null): string | null {
  const total = totalCost?.trim() ?? '';
  const refund = refundTotal?.trim() ?? '';
  const t = PLAIN_DECIMAL.exec(total);
  if (!t) return null;
  if (refund === '') return total;
  const r = PLAIN_DECIMAL.exec(refund);
  if (!r) return null;
  const left = new Big(total).minus(refund);
  if (left.lt(0)) return null;
  return left.toFixed(Math.max(t[1]?.length ?? 0, r[1]?.length ?? 0));
}

/** "2024-05-01 12:30:00" (read as UTC) or an ISO date → epoch ms; null when unreadable. */
function parseProviderDate(text: string | null): number | null {
  if (!text) return null;
  const iso = text.trim().replace(' ', 'T');
  const ms = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(iso) ? iso : `${iso}Z`);
  return Number.isNaN(ms) ? null : ms;
}
