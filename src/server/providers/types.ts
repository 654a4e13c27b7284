import { AppError } from '../../core/errors';
import type { CatalogService } from '../../core/catalog';
import type { OrderStatus } from '../../core/orderStatus';
import type { OrderNoteCode } from '../../core/orderNotes';
import type { Pacer } from './pacing';
import type { RefillStatus } from '../../core/refill';

export type ProviderProtocol = 'qqtube' | 'smm-v2';

/** What a provider says about one order, mapped to the storefront's statuses. */
export interface ProviderOrderState {
  status: OrderStatus;
  startCount: number | null;
  remains: number | null;
  currentCount: number | null;
  /** Units delivered so far, when the protocol tells it. */
  delivered: number | null;
  /** The provider's own status text, kept for logs and the admin view. */
  raw: string;
  /**
   * What the provider says the order costs the shop, after what it gave back of it (v2 `charge`,
   * QQTube `total_cost` less `refund_total`), as decimal text in the provider's own digits; null
   * when the answer tells none. Read into micro-dollars by the status sync (orders/sync.ts).
   */
  charge: string | null;
  /** The currency of `charge` as the provider names it; null when it names none. */
  currency: string | null;
}

export interface ProviderOrderRequest {
  serviceId: string;
  link: string;
  /** For a drip-feed, the quantity of one run. */
  quantity: number;
  /** Extra params keyed by the provider's field name (e.g. `comments`, `geo-countries`). */
  params: Record<string, string>;
  /**
   * One drip-feed order the provider runs itself: `runs` of `quantity` each, one every `interval`
   * minutes. Only for a provider whose `dripFeed` is true and a service it drip-feeds.
   */
  dripFeed?: { runs: number; interval: number };
}

export interface FindOrderQuery {
  serviceId: string;
  link: string;
  quantity: number;
  /** When the unanswered submission was sent. */
  since: Date;
  /** Provider ids already attached to other orders; never returned. */
  excludeIds?: string[];
}

export type PerOrderResult<T> = Map<string, T | { error: string }>;

export interface SmmProvider {
  readonly protocol: ProviderProtocol;
  /**
   * Whether an order may be a drip-feed the provider runs itself (`add` with `dripFeed`), for its
   * services marked `dripfeed`; otherwise a drip-feed is sent one run at a time.
   */
  readonly dripFeed?: boolean;

  /** The provider's whole catalogue; entries that cannot be normalized are left out. */
  services(): Promise<CatalogService[]>;

  /** One service, or null when the provider does not know the id. */
  service(id: string): Promise<CatalogService | null>;

  /**
   * Submits an order. Neither protocol has an idempotency key, so the outcome of a failure
   * depends on its kind:
   * - `refused` and `no_funds`: the provider answered and did not create the order — safe to
   *   refund (`isRefusal`);
   * - `rate_limited`: turned away before the panel saw it — nothing was created, send it later;
   * - `no_answer`, `unavailable` and `bad_reply`: ambiguous, the order may exist. Never re-send
   *   and never refund on these; mark the order for reconciliation (`findOrder` / `status`).
   */
  add(order: ProviderOrderRequest): Promise<{ providerOrderId: string }>;

  /**
   * Statuses of many orders, batched internally. An id the provider does not know maps to
   * `{ error }`. Ids whose lookup got no usable answer are absent from the map (ask again
   * later); when no lookup got an answer at all, the first ProviderError is thrown.
   */
  status(ids: string[]): Promise<PerOrderResult<ProviderOrderState>>;

  balance(): Promise<{ amount: string; currency: string }>;

  /**
   * Looks for an order whose `add` got no answer in the provider's own records.
   * `'unsupported'` when the protocol has no way to list orders.
   */
  findOrder(q: FindOrderQuery): Promise<{ providerOrderId: string } | null | 'unsupported'>;

  /**
   * Asks for a refill of delivered orders; per id the refill id or the provider's error.
   * `'unsupported'` when the protocol has no refills.
   */
  refill(ids: string[]): Promise<PerOrderResult<{ refillId: string }> | 'unsupported'>;

  /**
   * States of refill requests by the provider's refill id; an id the provider does not know maps
   * to `{ error }`, ids without a usable answer are absent. `'unsupported'` as for `refill`.
   */
  refillStatus(refillIds: string[]): Promise<PerOrderResult<{ status: RefillStatus; raw: string }> | 'unsupported'>;

  /**
   * Asks the provider to cancel orders; per id `{ cancelled: true }` or the provider's error.
   * `'unsupported'` when the protocol cannot cancel orders.
   */
  cancel(ids: string[]): Promise<PerOrderResult<{ cancelled: true }> | 'unsupported'>;
}

export interface ProviderOptions {
  url: string;
  key: string;
  /** Timeout of every call; defaults to 10 s. */
  timeoutMs?: number;
  /** Timeout of the catalogue call; defaults to `timeoutMs` when that is given, else 20 s. */
  servicesTimeoutMs?: number;
  /** How many single-order status calls run at once where the protocol has no batch call. */
  statusConcurrency?: number;
  /** Spaces the calls and honours the provider's 429s; every call waits its turn here. */
  pacer?: Pacer;
}

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_SERVICES_TIMEOUT_MS = 20_000;

/** What both provider clients keep: their options, time limits and status-call concurrency. */
export abstract class ProviderClient {
  protected readonly timeoutMs: number;
  protected readonly servicesTimeoutMs: number;
  protected readonly concurrency: number;

  constructor(
    protected readonly options: ProviderOptions,
    defaultConcurrency: number,
  ) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.servicesTimeoutMs = options.servicesTimeoutMs ?? options.timeoutMs ?? DEFAULT_SERVICES_TIMEOUT_MS;
    this.concurrency = options.statusConcurrency ?? defaultConcurrency;
  }
}

export type ProviderErrorKind = 'refused' | 'no_funds' | 'no_answer' | 'unavailable' | 'bad_reply' | 'rate_limited';

const CODE_OF_KIND = {
  refused: 'PROVIDER_REFUSED',
  no_funds: 'PROVIDER_REFUSED',
  no_answer: 'PROVIDER_NO_ANSWER',
  unavailable: 'PROVIDER_NO_ANSWER',
  bad_reply: 'PROVIDER_BAD_REPLY',
  rate_limited: 'PROVIDER_NO_ANSWER',
} as const satisfies Record<ProviderErrorKind, string>;

/**
 * A provider call that did not succeed.
 * - `refused`: the provider answered and said no (its messages are in `messages`);
 * - `no_funds`: the provider answered that our account there has not enough money for the call
 *   (its words matched by `NO_FUNDS_WORDS`, http.ts): a refusal, nothing was done;
 * - `no_answer`: timeout or connection failure;
 * - `unavailable`: the provider's server answered with a 5xx (its panel may or may not have done
 *   the work, so for an `add` it is as ambiguous as `no_answer`);
 * - `bad_reply`: a 2xx that is not JSON or not of the expected shape;
 * - `rate_limited`: HTTP 429, or a v2 panel's "Too many requests": the provider's limiter turned
 *   the call away before the panel saw it. Nothing was done (an `add` created no order): the
 *   call may be made again after `retryAfterMs`.
 */
export class ProviderError extends AppError {
  readonly kind: ProviderErrorKind;
  readonly messages: string[];
  /** For `rate_limited`: how long the provider asked to wait (its `Retry-After`, else 1 s). */
  readonly retryAfterMs: number;
  /**
   * For a refusal in which the provider gave no words of its own (`messages` then holds the
   * adapter's text): the order's note (docs/rules.md#statuses), stored without a message.
   */
  readonly note?: OrderNoteCode;

  constructor(kind: ProviderErrorKind, messages: string[], options?: { cause?: unknown; retryAfterMs?: number; note?: OrderNoteCode }) {
    super(CODE_OF_KIND[kind], messages.join(', ') || kind, { kind, messages });
    this.name = 'ProviderError';
    this.kind = kind;
    this.messages = messages;
    this.retryAfterMs = options?.retryAfterMs ?? 1000;
    if (options?.note) this.note = options.note;
    if (options?.cause !== undefined) this.cause = options.cause;
  }
}

export const isProviderError = (e: unknown): e is ProviderError => e instanceof ProviderError;

/** The provider answered and did not do what was asked (`refused` or `no_funds`): nothing was created. */
export const isRefusal = (e: unknown): e is ProviderError =>
  e instanceof ProviderError && (e.kind === 'refused' || e.kind === 'no_funds');
