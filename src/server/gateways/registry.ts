import { AppError } from '../../core/errors';
import type { PaymentMethodKind } from '../../core/paymentMethods';
import type { PaymentGateway } from './types';

/** The method kinds a gateway takes the money of (a bank transfer has none). */
export type GatewayKind = Exclude<PaymentMethodKind, 'bank'>;

/**
 * The gateway of each method kind this process can reach (docs/rules.md#payment-methods): the real
 * one when its keys are configured, the local sandbox otherwise, none when neither. A payment is
 * always settled, reconciled and refunded through the gateway of its own method.
 */
export interface GatewayRegistry {
  /** The gateway of `kind`; throws AppError('PAYMENT_METHOD_UNAVAILABLE') when this process has none. */
  of(kind: PaymentMethodKind): PaymentGateway;
  /** Whether a gateway of `kind` is configured. */
  has(kind: PaymentMethodKind): boolean;
  /** The kinds with a gateway. */
  kinds(): GatewayKind[];
}

export function gatewayRegistry(gateways: Partial<Record<GatewayKind, PaymentGateway>>): GatewayRegistry {
  const has = (kind: PaymentMethodKind): kind is GatewayKind => kind !== 'bank' && gateways[kind as GatewayKind] !== undefined;
  return {
    of(kind) {
      if (!has(kind)) throw new AppError('PAYMENT_METHOD_UNAVAILABLE', `No gateway is configured for ${kind}.`);
      return gateways[kind]!;
    },
    has,
    kinds: () => (Object.keys(gateways) as GatewayKind[]).filter(has),
  };
}
