import { randomBytes } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import type { Context } from 'hono';
import { AppError } from '../../core/errors';
import { isValidLink } from '../../core/links';
import { DRIP_MAX_INTERVAL, DRIP_MAX_RUNS, DRIP_MIN_INTERVAL, DRIP_MIN_RUNS, isQuantityAllowed, quantityBounds } from '../../core/orderRules';
import { serverOrderInputSchema } from '../../core/contracts/orderInput';
import { REFILL_STATUS_TEXT } from '../../core/refill';
import { microsToUsd, ratePer1000, V2_ERRORS, V2_FIELD_ERRORS, V2_QUANTITY_ERRORS, v2ServiceType, v2Status, v2TypeOf } from '../../core/resellerApi';
import { ADD_FORMS, CANCEL_FORM, fieldSchema, readForm, readParam, REFILL_FORMS, REFILL_STATUS_FORMS, SERVICE_FIGURE_FIELDS, SERVICE_PARAM, STATUS_FORMS } from '../../core/resellerApiActions';
import type { ServiceFigures } from '../../core/contracts/catalog';
import { platformDisplayName } from '../../core/platforms';
import type { AppDeps } from '../deps';
import { clientIp } from '../http/clientIp';
import { createRateLimiter, orderCounter, RATE_RULES } from '../http/rateLimit';
import { findService, serviceFigures } from '../catalog';
import { catalogServices, orderRefills, orders, users } from '../db/schema';
import { ordersForApi, placeApiOrder } from './orders';
import { refreshRefills, requestRefill, type RefillRow } from './actions';
import { authenticateKey, type KeyOwner } from './keys';
import { getSettings } from '../settings';
import { customerFees } from '../discounts';
import { balanceSql, owedRefusalOf } from '../wallet';
import type { CountedCall, OrderRow, OrdersDeps } from '../orders';
import { cancelOrders, ordersDeps } from '../orders';

/**
 * The reseller API at `/api/v2`, wire-compatible with the "SMM Panel API v2" clients speak:
 * `key` and `action` as form fields (also JSON or a query string); every answer is HTTP 200 JSON
 * and refusals are `{ "error": "…" }` in the wording clients match on. Orders placed here are
 * the same orders as on the site: same pricing, ledger, limits and live updates. Each action's
 * parameters are read as `core/resellerApiActions.ts` defines them, which the page `/{lang}/api`
 * shows. Amounts are written by `microsToUsd` (src/core/resellerApi.ts): up to 5 decimals, the
 * sixth rounded up in a `charge` and down in the `balance`.
 */

type Params = Record<string, string>;
type Reply = unknown;

/**
 * An object whose keys keep the order given: JavaScript puts integer-like keys first, but the
 * protocol's clients read `status` of many orders in the order they asked.
 */
class OrderedObject {
  constructor(readonly entries: [string, unknown][]) {}
  text(): string {
    return `{${this.entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}`;
  }
}

const MAX_PARAMS = 60;
const MAX_VALUE = 20_000;


const err = (error: string) => ({ error });

/** Query string and body (form, multipart or JSON) merged; only text and number values count. */
export async function readParams(c: Context): Promise<Params | null> {
  const out: Params = {};
  const put = (k: string, v: unknown) => {
    if (typeof v === 'number' && Number.isFinite(v)) v = String(v);
    if (typeof v === 'boolean') v = v ? '1' : '0';
    if (typeof v !== 'string' || !/^[A-Za-z0-9_.[\]-]{1,64}$/.test(k)) return;
    out[k] = v.slice(0, MAX_VALUE);
  };
  for (const [k, v] of Object.entries(c.req.query())) put(k, v);
  if (c.req.method === 'POST') {
    const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    try {
      if (type === 'application/json' || type.endsWith('+json')) {
        const body: unknown = await c.req.json();
        if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
        for (const [k, v] of Object.entries(body)) put(k, v);
      } else if (type === 'application/x-www-form-urlencoded') {
        // Read as text and parsed here, as a form parser would (the last of a repeated field
        // counts; `name[]` fields are lists, which no action reads), without a web stream per call.
        for (const [k, v] of new URLSearchParams(await c.req.text())) if (!k.endsWith('[]')) put(k, v);
      } else if (type === 'multipart/form-data') {
        const body = await c.req.parseBody();
        for (const [k, v] of Object.entries(body)) put(k, v);
      } else if (type === 'text/plain') {
        // Some clients post the form's text with a text/plain type: read as the form it is.
        for (const [k, v] of new URLSearchParams(await c.req.text())) put(k, v);
      } else if (type) {
        return null;
      }
    } catch {
      return null;
    }
  }
  if (Object.keys(out).length > MAX_PARAMS) return null;
  return out;
}

const asApiId = (id: string) => (/^\d{1,15}$/.test(id) ? Number(id) : null);
const jsonId = (id: string) => asApiId(id) ?? id;

/** What is left to deliver of one run of a drip-feed. */
function runRemains(r: OrderRow): number {
  if (r.status === 'completed') return 0;
  if (r.status === 'partial') return Math.min(r.quantity, Math.max(0, r.remains ?? 0));
  if (['error', 'stopped', 'refunded', 'cancelled'].includes(r.status)) return r.quantity;
  return Math.min(r.quantity, Math.max(0, r.remains ?? r.quantity));
}

/** A service's figures as `services` answers them: only those known (SERVICE_FIGURE_FIELDS). */
function figureFields(f: ServiceFigures | undefined): Record<string, number> {
  const out: Record<string, number> = {};
  if (f?.startMinutes != null) out[SERVICE_FIGURE_FIELDS.start.name] = f.startMinutes;
  if (f?.completeMinutes != null) out[SERVICE_FIGURE_FIELDS.average.name] = f.completeMinutes;
  if (f?.completionRate != null) out[SERVICE_FIGURE_FIELDS.rate.name] = f.completionRate;
  return out;
}

export function v2Handler(deps: AppDeps) {
  const db = deps.database.db;
  const limiter = createRateLimiter(db);

  /** The services at the key owner's own rates: the site's fees and their discount (docs/rules.md#discounts). */
  async function services(owner: KeyOwner): Promise<Reply> {
    const [fees, rows, figures] = await Promise.all([
      customerFees(db, owner.userId),
      db.select().from(catalogServices).where(eq(catalogServices.active, true)).orderBy(catalogServices.platform, catalogServices.type, catalogServices.id),
      serviceFigures(db),
    ]);
    return rows.flatMap((s) => {
      const rate = ratePer1000(s, fees);
      if (rate === null) return [];
      const bounds = quantityBounds(s);
      const platform = platformDisplayName(s.platform);
      return [{
        service: jsonId(s.id),
        name: s.name,
        type: v2ServiceType(s.params),
        category: [platform, s.type].filter(Boolean).join(' '),
        rate,
        min: String(bounds.min),
        max: String(bounds.max),
        refill: s.refill,
        cancel: s.cancel,
        dripfeed: s.dripfeed,
        ...figureFields(figures.byService.get(s.id)),
      }];
    });
  }

  async function add(od: OrdersDeps, owner: KeyOwner, p: Params, call?: CountedCall): Promise<Reply> {
    const id = readParam(SERVICE_PARAM, p);
    if ('error' in id) return err(id.error);
    const service = await findService(db, id.value);
    if (!service) return err(V2_ERRORS.service);
    // The fields of the service's type (`type` in services), read as the API page shows them.
    const { type, field } = v2TypeOf(service.params);
    const form = ADD_FORMS[type];
    const read = readForm(form, p);
    if ('error' in read) return err(read.error);
    const v = read.values;
    // The value of the field the type adds (comments, usernames, hashtag …): a list of lines or a text.
    const typed: unknown = form.field ? (v as Record<string, unknown>)[form.field] : undefined;
    const lines = Array.isArray(typed) ? (typed as string[]) : null;
    // Drip-feed: `runs` of `quantity` each, one every `interval` minutes. Runs of 0 or 1, and runs
    // or an interval that is empty or not a number (clients send `runs=undefined` on plain
    // orders), make an ordinary order.
    let drip: { runs: number; interval: number } | undefined;
    if ('runs' in v && v.runs !== undefined && v.interval !== undefined && v.runs > 1) {
      if (!service.dripfeed) return err('Drip-feed is not available for this service');
      drip = { runs: v.runs, interval: v.interval };
      if (drip.runs < DRIP_MIN_RUNS || drip.runs > DRIP_MAX_RUNS) return err(`Runs must be between ${DRIP_MIN_RUNS} and ${DRIP_MAX_RUNS}`);
      if (drip.interval < DRIP_MIN_INTERVAL || drip.interval > DRIP_MAX_INTERVAL) return err(`Interval must be between ${DRIP_MIN_INTERVAL} and ${DRIP_MAX_INTERVAL} minutes`);
    }
    if (!isValidLink(service.platform, v.link)) return err(V2_ERRORS.link);
    // A type without quantity (a list of comments or usernames) orders as many units as the list
    // has lines, and a quantity sent along is not read (docs/rules.md#orders).
    const quantity = 'quantity' in v ? v.quantity : (lines?.length ?? 0);
    const bounds = quantityBounds(service);
    if (quantity < bounds.min) return err(V2_QUANTITY_ERRORS.min(bounds.min));
    if (quantity > bounds.max) return err(V2_QUANTITY_ERRORS.max(bounds.max));
    if (!isQuantityAllowed(quantity, bounds)) return err(V2_QUANTITY_ERRORS.step(bounds.step));
    const params: Record<string, string> = {};
    for (const param of service.params) {
      if (param.fieldName === field) {
        // Under the service's own name for it (`hashtags` for the protocol's `hashtag`); a list one item a line.
        params[field] = lines ? lines.join('\n') : String(typed);
        continue;
      }
      // Fields a service asks for beyond its type's (a country, a gender) are read under their own names.
      const sent = Object.hasOwn(p, param.fieldName) ? p[param.fieldName]!.trim() : '';
      if (!sent) {
        if (param.required) return err(V2_FIELD_ERRORS.required(param.fieldName));
        continue;
      }
      const value = fieldSchema(param.fieldName).safeParse(sent);
      if (!value.success) return err(value.error.issues[0]?.message ?? V2_ERRORS.request);
      params[param.fieldName] = value.data;
    }
    try {
      // The form's values, converted above, as the order contract's input.
      const idempotencyKey = `api_${randomBytes(12).toString('hex')}` as const;
      const input = serverOrderInputSchema.safeParse({ serviceId: service.id, link: v.link, quantity, params, idempotencyKey, ...drip });
      if (!input.success) return err(V2_ERRORS.request);
      const order = await placeApiOrder(od, owner, { ...input.data, idempotencyKey }, orderCounter(deps.env.ORDERS_PER_MINUTE, owner.userId), call);
      return { order: order.apiId };
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      switch (e.code) {
        case 'RATE_LIMITED':
          throw e; // answered as every rate refusal of the protocol is (`answer`)
        case 'INSUFFICIENT_BALANCE':
          return err(V2_ERRORS.funds);
        case 'BALANCE_OWED':
          return err(V2_ERRORS.owed);
        case 'ACTIVE_ORDER_EXISTS':
          return err(V2_ERRORS.active);
        case 'SERVICE_NOT_FOUND':
          return err(V2_ERRORS.service);
        case 'LINK_INVALID':
          return err(V2_ERRORS.link);
        case 'QUANTITY_OUT_OF_RANGE':
          return err(V2_QUANTITY_ERRORS.min(bounds.min));
        default:
          return err(V2_ERRORS.request);
      }
    }
  }

  /** An order's status; a drip-feed the provider runs (sent whole) is followed as one order, with its runs told. */
  function orderStatus(o: OrderRow, runs: OrderRow[] = []) {
    if (o.runs !== null && !o.upstreamDrip) return dripStatus(o, runs);
    const remains = o.remains ?? (o.status === 'completed' ? 0 : o.quantity);
    return {
      charge: microsToUsd(o.chargeMicros - o.refundedMicros, 'up'),
      start_count: String(o.startCount ?? 0),
      status: v2Status(o.status),
      remains: String(Math.max(0, Math.min(o.quantity, remains))),
      currency: 'USD',
      ...(o.runs !== null ? { runs: String(o.runs), runs_sent: String(o.runsSent), interval: String(o.intervalMinutes) } : {}),
    };
  }

  /**
   * A drip-feed parent as clients expect it: the total quantity, what is paid net of every
   * refund (its own and its runs'), `In progress` while runs are still to come or on their way,
   * `remains` the quantity not (yet) delivered, and the runs written so far.
   */
  function dripStatus(o: OrderRow, runs: OrderRow[]) {
    const perRun = o.quantity / o.runs!;
    const remains = (o.runs! - runs.length) * perRun + runs.reduce((sum, r) => sum + runRemains(r), 0);
    const refunded = o.refundedMicros + runs.reduce((sum, r) => sum + r.refundedMicros, 0);
    return {
      charge: microsToUsd(Math.max(0, o.chargeMicros - refunded), 'up'),
      start_count: String(runs[0]?.startCount ?? 0),
      status: v2Status(o.status),
      remains: String(Math.max(0, Math.min(o.quantity, remains))),
      currency: 'USD',
      runs: String(o.runs),
      runs_sent: String(o.runsSent),
      interval: String(o.intervalMinutes),
    };
  }

  async function withRuns(found: OrderRow[]): Promise<Map<string, OrderRow[]>> {
    const parents = found.filter((o) => o.runs !== null).map((o) => o.id);
    const out = new Map<string, OrderRow[]>();
    if (!parents.length) return out;
    const rows = await db.select().from(orders).where(inArray(orders.parentId, parents)).orderBy(orders.createdAt);
    for (const r of rows) out.set(r.parentId!, [...(out.get(r.parentId!) ?? []), r]);
    return out;
  }

  async function status(owner: KeyOwner, p: Params): Promise<Reply> {
    // A list in `order` (`order=1,2`) asks what `orders` asks, and is answered the same way.
    if (p.order !== undefined && p.orders === undefined && p.order.includes(',')) {
      const { order, ...rest } = p;
      return status(owner, { ...rest, orders: order });
    }
    if (p.order !== undefined && p.orders === undefined) {
      const one = readForm(STATUS_FORMS.one, p);
      if ('error' in one) return err(one.error);
      const id = asApiId(one.values.order);
      const [o] = id === null ? [] : await ordersForApi(db, owner.userId, [id]);
      return o ? orderStatus(o, (await withRuns([o])).get(o.id)) : err(V2_ERRORS.order);
    }
    const read = readForm(STATUS_FORMS.many, p);
    if ('error' in read) return err(read.error);
    const ids = read.values.orders;
    const found = await ordersForApi(db, owner.userId, ids.map(asApiId).filter((x): x is number => x !== null));
    const byId = new Map(found.map((o) => [String(o.apiId), o]));
    const runs = await withRuns(found);
    return new OrderedObject(ids.map((id) => {
      const o = byId.get(String(asApiId(id)));
      return [id, o ? orderStatus(o, runs.get(o.id)) : err(V2_ERRORS.order)];
    }));
  }

  async function refill(od: OrdersDeps, owner: KeyOwner, p: Params): Promise<Reply> {
    const single = p.order !== undefined && p.orders === undefined;
    const read = single ? readForm(REFILL_FORMS.one, p) : readForm(REFILL_FORMS.many, p);
    if ('error' in read) return err(read.error);
    const ids = 'order' in read.values ? read.values.order : read.values.orders;
    const found = await ordersForApi(db, owner.userId, ids.map(asApiId).filter((x): x is number => x !== null));
    const byId = new Map(found.map((o) => [String(o.apiId), o]));
    const results: { order: number | string; refill: number | { error: string } }[] = [];
    for (const id of ids) {
      const o = byId.get(String(asApiId(id)));
      if (!o) {
        results.push({ order: jsonId(id), refill: err(V2_ERRORS.order) });
        continue;
      }
      try {
        const r = await requestRefill(od, o, 'api');
        results.push({ order: o.apiId, refill: r.id });
      } catch (e) {
        if (!(e instanceof AppError)) throw e;
        results.push({ order: o.apiId, refill: err(e.message) });
      }
    }
    if (single) {
      const only = results[0]!;
      return typeof only.refill === 'number' ? { refill: only.refill } : only.refill;
    }
    return results;
  }

  async function refillStatus(od: OrdersDeps, owner: KeyOwner, p: Params): Promise<Reply> {
    const single = p.refill !== undefined && p.refills === undefined;
    const read = single ? readForm(REFILL_STATUS_FORMS.one, p) : readForm(REFILL_STATUS_FORMS.many, p);
    if ('error' in read) return err(read.error);
    const ids = 'refill' in read.values ? read.values.refill : read.values.refills;
    const numeric = ids.map(asApiId).filter((x): x is number => x !== null);
    const load = async () =>
      numeric.length
        ? await db.select().from(orderRefills).where(and(eq(orderRefills.userId, owner.userId), inArray(orderRefills.id, numeric)))
        : ([] as RefillRow[]);
    let rows = await load();
    if (rows.some((r) => r.status === 'pending' || r.status === 'in_progress')) {
      if ((await refreshRefills(od, { refillIds: rows.map((r) => r.id) })) > 0) rows = await load();
    }
    const byId = new Map(rows.map((r) => [String(r.id), r]));
    const text = (id: string) => {
      const r = byId.get(String(asApiId(id)));
      return r ? REFILL_STATUS_TEXT[r.status] : null;
    };
    if (single) {
      const s = text(ids[0]!);
      return s ? { status: s } : err(V2_ERRORS.refillId);
    }
    return ids.map((id) => ({ refill: jsonId(id), status: text(id) ?? err(V2_ERRORS.refillId) }));
  }

  async function cancel(od: OrdersDeps, owner: KeyOwner, p: Params): Promise<Reply> {
    const read = readForm(CANCEL_FORM, p);
    if ('error' in read) return err(read.error);
    const ids = read.values.orders;
    const found = await ordersForApi(db, owner.userId, ids.map(asApiId).filter((x): x is number => x !== null));
    const byId = new Map(found.map((o) => [String(o.apiId), o]));
    // All together: the provider is asked in its list form, not once per order.
    const outcomes = await cancelOrders(od, found, 'api');
    return ids.map((id) => {
      const o = byId.get(String(asApiId(id)));
      const outcome = o && outcomes.get(o.id);
      if (!o || !outcome) return { order: jsonId(id), cancel: err(V2_ERRORS.order) };
      return { order: o.apiId, cancel: 'refused' in outcome ? err(outcome.refused.message) : 1 };
    });
  }

  async function balance(owner: KeyOwner): Promise<Reply> {
    const [row] = await db.select({ balanceMicros: users.balanceMicros }).from(users).where(eq(users.id, owner.userId));
    return { balance: microsToUsd(row?.balanceMicros ?? 0, 'down'), currency: 'USD' };
  }

  async function answer(c: Context): Promise<Reply> {
    const p = await readParams(c);
    if (!p) return err(V2_ERRORS.request);
    const owner = p.key ? await authenticateKey(db, p.key.trim(), clientIp(c)) : null;
    if (!owner) return err(V2_ERRORS.key);
    // A rate refusal (the key's calls, the customer's orders) keeps the protocol's form: its
    // error text, HTTP 200, and a Retry-After header in seconds.
    try {
      // An account that owes the shop (a chargeback, docs/decisions/0019) may use no action until
      // it is settled: its balance is read in the statement that counts the call.
      const counted = async (): Promise<Reply | null> => {
        const balance = await limiter.consumeReading<number | string | null>(RATE_RULES.apiPerKey, owner.keyId, balanceSql(owner.userId));
        return owedRefusalOf(balance === null ? null : Number(balance)) ? err(V2_ERRORS.owed) : null;
      };
      if (p.action === 'add' && !(await getSettings(db)).maintenance_mode) {
        // An order counts its call in its own statement (one round trip), where the debit
        // refuses an account that owes (BALANCE_OWED). Refused before that statement, the call
        // is counted as any other, and a refusal of the call comes first, as for any other.
        const call: CountedCall = { rule: RATE_RULES.apiPerKey, subject: owner.keyId, counted: false };
        const reply = await add(ordersDeps(deps), owner, p, call);
        return call.counted ? reply : ((await counted()) ?? reply);
      }
      return (await counted()) ?? (await act(owner, p));
    } catch (e) {
      if (e instanceof AppError && e.code === 'RATE_LIMITED') {
        c.header('Retry-After', String(e.details?.retryAfterSeconds ?? 60));
        return err(V2_ERRORS.rate);
      }
      throw e;
    }
  }

  async function act(owner: KeyOwner, p: Params): Promise<Reply> {
    switch (p.action) {
      case 'services':
        return services(owner);
      case 'balance':
        return balance(owner);
      case 'status':
        return status(owner, p);
    }
    // Maintenance stops what changes orders, whichever method carries it; reads go on.
    if (['add', 'refill', 'cancel'].includes(p.action ?? '') && (await getSettings(db)).maintenance_mode) return err(V2_ERRORS.maintenance);
    const od = ordersDeps(deps);
    switch (p.action) {
      case 'add':
        return add(od, owner, p);
      case 'refill':
        return refill(od, owner, p);
      case 'refill_status':
        return refillStatus(od, owner, p);
      case 'cancel':
        return cancel(od, owner, p);
      default:
        return err(V2_ERRORS.request);
    }
  }

  return async (c: Context) => {
    c.header('Cache-Control', 'no-store');
    try {
      const reply = await answer(c);
      if (reply instanceof OrderedObject) return c.body(reply.text(), 200, { 'content-type': 'application/json; charset=UTF-8' });
      return c.json(reply as object);
    } catch (e) {
      if (e instanceof AppError && e.code.startsWith('PROVIDER_')) return c.json(err('The provider did not answer. Try again later.'));
      throw e;
    }
  };
}
