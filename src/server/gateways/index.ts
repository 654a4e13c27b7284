/**
 * Picks the payment gateway adapter from configuration. Epoint and the local sandbox share
 * one protocol; every other gateway (Payriff) is a `kind` with its own adapter file.
 */
import { createEpointGateway } from './epoint';
import { createPayriffGateway } from './payriff';
import { createPaytrGateway } from './paytr';
import type { PaymentGateway } from './types';

export interface EpointGatewayConfig {
  kind: 'epoint' | 'sandbox';
  /** Defaults to Epoint's production API for `epoint`; required for `sandbox`. */
  baseUrl?: string;
  publicKey: string;
  privateKey: string;
  timeoutMs?: number;
}

export interface PayriffGatewayConfig {
  kind: 'payriff';
  /** Defaults to Payriff's production API; the local sandbox's origin otherwise. */
  baseUrl?: string;
  secretKey: string;
  timeoutMs?: number;
}

export interface PaytrGatewayConfig {
  kind: 'paytr';
  /** PayTR's origin; defaults to https://www.paytr.com (the sandbox's origin for the local one). */
  baseUrl?: string;
  merchantId: string;
  merchantKey: string;
  merchantSalt: string;
  testMode?: boolean;
  timeoutMs?: number;
}

export type GatewayConfig = EpointGatewayConfig | PayriffGatewayConfig | PaytrGatewayConfig;

export function createGateway(config: GatewayConfig): PaymentGateway {
  switch (config.kind) {
    case 'paytr':
      return createPaytrGateway(config);
    case 'epoint':
      return createEpointGateway({ ...config, name: 'epoint' });
    case 'sandbox':
      if (!config.baseUrl) throw new Error('the sandbox gateway needs baseUrl (the sandbox server’s /api/1 URL)');
      return createEpointGateway({ ...config, name: 'sandbox' });
    case 'payriff':
      return createPayriffGateway(config);
    default: {
      const unknown: never = config;
      throw new Error(`unknown payment gateway kind: ${String((unknown as { kind: unknown }).kind)}`);
    }
  }
}

export { createEpointGateway, epointDecode, epointEncode, epointSign, epointVerify, EPOINT_BASE_URL } from './epoint';
export type { EpointOptions } from './epoint';
export { createPayriffGateway, PAYRIFF_BASE_URL } from './payriff';
export type { PayriffOptions } from './payriff';
export { createPaytrGateway, paytrCreateToken, paytrHashMatches, paytrMerchantOid, paytrNotificationHash, paytrStatusToken, PAYTR_BASE_URL } from './paytr';
export type { PaytrOptions } from './paytr';
export { decimalToQepik, qepikToDecimal } from './amount';
export type * from './types';
export { gatewayRegistry } from './registry';
export type { GatewayKind, GatewayRegistry } from './registry';
