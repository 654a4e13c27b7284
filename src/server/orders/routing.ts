import { asc, eq, sql } from 'drizzle-orm';
import type { CatalogService, PriceTier } from '../../core/catalog';
import { AppError } from '../../core/errors';
import { costOfOrderMicros } from '../../core/pricing';
import { cachesOf, readThrough } from '../cache';
import type { Db } from '../db/client';
import { providerServices, serviceSources } from '../db/schema';
import type { ProviderErrorKind, ProviderRegistry, RegisteredProvider, SmmProvider } from '../providers';

/**
 * Routing and failover (docs/decisions/0017): which provider an order is sent to, and when it may
 * move to the next. The one place that decides; placement (service.ts) records the first choice,
 * submission (submission.ts) walks the rest.
 *
 * - A service's candidates are its sources (`service_sources`) in order, each usable while its
 *   provider is enabled and callable, its provider service is still listed, and a tier of its price
 *   holds the quantity. A service without sources is the default provider's own service.
 * - An order moves on only when the provider answered that it did not take it: a refusal, a 429,
 *   a 5xx, or not enough funds there (`moveOnAfter`). After an unanswered call (timeout, an
 *   unreadable answer) it never moves: that provider may hold it, and it is settled there.
 * - An order is written at one provider at a time: the provider it is being sent to is recorded
 *   before the call, so whoever settles an unanswered call asks the right one.
 */

/** One provider an order may be sent to, with what it costs there. */
export interface RouteCandidate {
  provider: RegisteredProvider;
  /** The service's id at that provider. */
  providerServiceId: string;
  /** Its price there (no fees): what the order costs the shop. */
  costTiers: PriceTier[];
  /** The order's cost there, in micro-dollars (`costOfOrderMicros`, times the runs of a drip-feed). */
  costMicros: number;
  /** That provider runs a drip-feed of the service itself (`isUpstreamDrip`). */
  dripFeedWhole: boolean;
}

interface SourceRow {
  providerId: string;
  providerServiceId: string;
  tiers: PriceTier[] | null;
  present: boolean | null;
  dripfeed: boolean | null;
}

/** A service's sources as stored, cached with the catalogue (forgotten on its change notice). */
async function sourcesOf(db: Db, serviceId: string): Promise<SourceRow[]> {
  return readThrough(cachesOf(db), (c) => c.services, `sources:${serviceId}`, () =>
    db
      .select({
        providerId: serviceSources.providerId,
        providerServiceId: serviceSources.providerServiceId,
        tiers: providerServices.tiers,
        present: providerServices.present,
        dripfeed: providerServices.dripfeed,
      })
      .from(serviceSources)
      .leftJoin(providerServices, sql`${providerServices.providerId} = ${serviceSources.providerId} and ${providerServices.serviceId} = ${serviceSources.providerServiceId}`)
      .where(eq(serviceSources.serviceId, serviceId))
      .orderBy(asc(serviceSources.position)),
  );
}

/** What an order asks of its route: the quantity of one run, how many runs, whether it is sent as one drip-feed. */
export interface RouteQuery {
  quantity: number;
  runs: number | null;
  /** Sent whole as a drip-feed the provider runs: only providers that do so for the service qualify. */
  upstreamDrip: boolean;
}

/**
 * Whether a drip-feed is sent to a provider as one drip-feed order: its protocol takes them and
 * it drip-feeds the service. Otherwise the runs are written and sent one by one (dripfeed.ts).
 */
export const isUpstreamDrip = (provider: Pick<SmmProvider, 'dripFeed'>, service: { dripfeed: boolean }) => provider.dripFeed === true && service.dripfeed;

const noRoute = () => new AppError('PROVIDER_NO_ANSWER', 'No provider can take this service now.');

/**
 * The providers an order of `service` may be sent to, in the order they are tried; empty when
 * none can take it now. `runs` multiplies the cost of one run.
 */
export async function routeOf(
  deps: { db: Db; providers: ProviderRegistry },
  service: Pick<CatalogService, 'id' | 'tiers' | 'dripfeed'>,
  q: RouteQuery,
  /** Only the service's sources: none for a service without them (an order of it never moves). */
  opts: { sourcesOnly?: boolean } = {},
): Promise<RouteCandidate[]> {
  const times = q.runs ?? 1;
  const sources = await sourcesOf(deps.db, service.id);
  if (sources.length === 0) {
    if (opts.sourcesOnly) return [];
    let provider: RegisteredProvider;
    try {
      provider = deps.providers.forService(service.id);
    } catch {
      return [];
    }
    const costMicros = costOfOrderMicros(service.tiers, q.quantity) * times;
    const dripFeedWhole = isUpstreamDrip(provider.client, service);
    if (q.upstreamDrip && !dripFeedWhole) return [];
    return [{ provider, providerServiceId: service.id, costTiers: service.tiers, costMicros, dripFeedWhole }];
  }
  const out: RouteCandidate[] = [];
  for (const s of sources) {
    const provider = deps.providers.get(s.providerId);
    if (!provider?.enabled || !s.present || !s.tiers) continue;
    const dripFeedWhole = isUpstreamDrip(provider.client, { dripfeed: s.dripfeed ?? false });
    if (q.upstreamDrip && !dripFeedWhole) continue;
    const one = costOfOrderMicros(s.tiers, q.quantity);
    if (one <= 0) continue;
    out.push({ provider, providerServiceId: s.providerServiceId, costTiers: s.tiers, costMicros: one * times, dripFeedWhole });
  }
  return out;
}

/** The first provider an order of `service` goes to, or PROVIDER_NO_ANSWER when none can take it. */
export async function firstRoute(deps: { db: Db; providers: ProviderRegistry }, service: Pick<CatalogService, 'id' | 'tiers' | 'dripfeed'>, q: RouteQuery): Promise<RouteCandidate> {
  const [first] = await routeOf(deps, service, q);
  if (!first) throw noRoute();
  return first;
}

/**
 * Whether an order refused by a provider in this way may be sent to the next one: only when the
 * provider answered, before giving an order id, that it did not take it. A call without an
 * answer, or with one that cannot be read, never moves the order.
 */
export function moveOnAfter(kind: ProviderErrorKind): boolean {
  return kind === 'refused' || kind === 'rate_limited' || kind === 'unavailable' || kind === 'no_funds';
}
