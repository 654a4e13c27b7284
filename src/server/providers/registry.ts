import { AppError } from '../../core/errors';
import type { SmmProvider } from './types';

/** One provider the shop may call: its client (with its own pacer) and what the shop knows of it. */
export interface RegisteredProvider {
  /** The row in `providers`; null for a client handed in without one (tests, benches). */
  readonly id: string | null;
  readonly name: string;
  readonly enabled: boolean;
  readonly client: SmmProvider;
}

/**
 * Where a provider is chosen (docs/decisions/0016). Every call to a provider goes through the
 * client this registry hands out: `forService` for an order being placed or sent, `forOrder` for
 * an order the provider already holds (its status, refill, cancel, reconciliation).
 */
export interface ProviderRegistry {
  /** Every provider known, enabled or not. */
  all(): RegisteredProvider[];
  get(id: string): RegisteredProvider | undefined;
  /**
   * The provider that offers a service. Services are still keyed by the provider's own service
   * id, so this is the provider that holds the catalogue (the default provider), while it is
   * enabled; disabled, new orders are refused rather than sent where the ids mean other services.
   */
  forService(serviceId: string): RegisteredProvider;
  /** The provider recorded on the order (enabled or not: it holds the order); none recorded → the default provider. */
  forOrder(order: { providerId: string | null }): RegisteredProvider;
  /** Reads the providers again (after a change); absent where the list is fixed. */
  refresh?(): Promise<void>;
}

const noProvider = () => new AppError('PROVIDER_NO_ANSWER', 'No SMM provider is configured.');

/**
 * The default provider of a list, whose catalogue the shop's services are: the first one (the list
 * is in the order the providers were created, so it is the shop's first provider, usually the
 * one the environment described). Orders recorded without a provider are at it.
 */
export function defaultOf(list: readonly RegisteredProvider[]): RegisteredProvider | undefined {
  return list[0];
}

/** The provider whose catalogue the shop's services are (today: the default provider). */
export function catalogueProvider(registry: ProviderRegistry): RegisteredProvider {
  const found = defaultOf(registry.all());
  if (!found) throw noProvider();
  return found;
}

/** A registry over a list that `entries` returns at each call (it may change between calls). */
export function registryOver(entries: () => readonly RegisteredProvider[]): ProviderRegistry {
  return {
    all: () => [...entries()],
    get: (id) => entries().find((p) => p.id === id),
    forService() {
      const found = defaultOf(entries());
      if (!found?.enabled) throw noProvider();
      return found;
    },
    forOrder(order) {
      if (order.providerId == null) {
        const found = defaultOf(entries());
        if (!found) throw noProvider();
        return found;
      }
      const found = entries().find((p) => p.id === order.providerId);
      if (!found) throw noProvider();
      return found;
    },
  };
}

/**
 * A registry of one provider client kept in no table, at which every order is, whichever provider
 * it records: what tests and benches hand a service.
 */
export function singleProvider(client: SmmProvider, name = 'default'): ProviderRegistry {
  const entry: RegisteredProvider = { id: null, name, enabled: true, client };
  return { all: () => [entry], get: () => undefined, forService: () => entry, forOrder: () => entry };
}

/**
 * Orders grouped by the provider that holds them, each group in the order given: one batch call
 * per provider, and a provider's order ids never mixed with another's. An order whose provider
 * the registry cannot call (its key cannot be opened) is left out: it waits, the others go on.
 */
export function groupByProvider<T extends { providerId: string | null }>(registry: ProviderRegistry, items: readonly T[]): Map<RegisteredProvider, T[]> {
  const groups = new Map<RegisteredProvider, T[]>();
  for (const item of items) {
    let p: RegisteredProvider;
    try {
      p = registry.forOrder(item);
    } catch {
      continue;
    }
    const group = groups.get(p);
    if (group) group.push(item);
    else groups.set(p, [item]);
  }
  return groups;
}

/** Calls made through the clients' pacers so far, summed over every provider (for the figures). */
export function callsMade(registry: ProviderRegistry): number {
  let calls = 0;
  for (const p of registry.all()) calls += (p.client as { options?: { pacer?: { stats: { calls: number } } } }).options?.pacer?.stats.calls ?? 0;
  return calls;
}
