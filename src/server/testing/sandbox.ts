import type { SandboxGateway } from '../../../sandbox/gateway';
import type { SandboxPayriff } from '../../../sandbox/payriff';
import type { SandboxPaytr } from '../../../sandbox/paytr';
import type { SandboxProvider } from '../../../sandbox/provider';
import { createProvider, type ProviderConfig } from '../providers';

/** The environment that points a shop process at a sandbox provider (its QQTube-style address). */
export const providerEnv = (sandbox: SandboxProvider) => ({ PROVIDER: 'qqtube', PROVIDER_URL: sandbox.qqtubeUrl, PROVIDER_KEY: sandbox.apiKey });

/** The environment that points a shop process at a sandbox card gateway (Epoint's protocol). */
export const gatewayEnv = (gateway: SandboxGateway) => ({
  PAYMENT_GATEWAY: 'epoint',
  EPOINT_URL: gateway.url,
  EPOINT_PUBLIC_KEY: gateway.publicKey,
  EPOINT_PRIVATE_KEY: gateway.privateKey,
});

/** The environment that points a shop process at a sandbox Payriff (as the real one, by its key). */
export const payriffEnv = (payriff: SandboxPayriff) => ({ PAYRIFF_URL: payriff.url, PAYRIFF_SECRET_KEY: payriff.secretKey });

/**
 * A provider client for a sandbox provider, in this process. It waits as long as a busy machine
 * may need (30 s) unless `options` says otherwise: only the tests of faults that leave a call
 * unanswered give it a short timeout.
 */
export const sandboxClient = (sandbox: SandboxProvider, options: Partial<ProviderConfig> = {}) =>
  createProvider({ protocol: 'qqtube', url: sandbox.qqtubeUrl, key: sandbox.apiKey, timeoutMs: 30_000, ...options });

/** The environment that points a shop process at a PayTR sandbox (as the real one, by its keys; test mode). */
export const paytrEnv = (paytr: SandboxPaytr) => ({
  PAYTR_URL: paytr.origin,
  PAYTR_MERCHANT_ID: paytr.merchantId,
  PAYTR_MERCHANT_KEY: paytr.merchantKey,
  PAYTR_MERCHANT_SALT: paytr.merchantSalt,
  PAYTR_TEST_MODE: 'true',
});
