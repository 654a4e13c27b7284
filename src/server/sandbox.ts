import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { startSandboxGateway, type SandboxGateway } from '../../sandbox/gateway';
import { startSandboxPayriff, type SandboxPayriff } from '../../sandbox/payriff';
import { startSandboxPaytr, type SandboxPaytr } from '../../sandbox/paytr';
import { parseLatencyRange, startSandboxProvider, type SandboxProvider } from '../../sandbox/provider';
import type { Env } from './env';
import { callbackPath, type PaymentMethodKind } from '../core/paymentMethods';
import { createGateway, type PaymentGateway } from './gateways';
import { gatewayRegistry, type GatewayRegistry } from './gateways';
import type { EnvProvider } from './providers';

export interface ExternalParts {
  /** The first provider of a fresh shop (`ensureEnvProviders` keeps it in `providers`). */
  envProvider: EnvProvider;
  /**
   * Every provider this process describes, `envProvider` first; the others have an `envSlot`
   * (the sandbox's second provider, `SANDBOX_SLOT_2`).
   */
  envProviders: EnvProvider[];
  /** The gateway of each payment method kind this process can take money through. */
  gateways: GatewayRegistry;
  /** The method kinds served by a sandbox here: turned on for customers when their row is first written. */
  sandboxMethods: PaymentMethodKind[];
  /** The sandbox servers running in this process, when any (`second`: the second sandbox provider). */
  sandbox: { provider?: SandboxProvider; second?: SandboxProvider; gateway?: SandboxGateway; payriff?: SandboxPayriff; paytr?: SandboxPaytr };
  /** Tells the sandbox gateways where to post callbacks once the server's address is known. */
  setPublicUrl(url: string): void;
  close(): Promise<void>;
}

export const PAYMENT_CALLBACK_PATH = callbackPath('epoint');

/** The `env_slot` of the second sandbox provider's row. */
export const SANDBOX_SLOT_2 = 'sandbox-2';

/** Both protocols of the sandbox provider: the second one speaks the one the first does not. */
const otherProtocol = (p: EnvProvider['protocol']): EnvProvider['protocol'] => (p === 'qqtube' ? 'smm-v2' : 'qqtube');
const urlFor = (provider: SandboxProvider, protocol: EnvProvider['protocol']) => (protocol === 'qqtube' ? provider.qqtubeUrl : provider.v2Url);

/**
 * The SMM provider and the card gateways (Epoint's protocol, Payriff): the real ones when
 * configured, otherwise sandbox
 * servers on loopback that speak the same protocols (docs/ARCHITECTURE.md#sandbox). The sandbox provider keeps its
 * orders in the data folder so a restart does not lose them; the shop talks to it over SMM v2
 * (`SANDBOX_PROVIDER_PROTOCOL`, or QQTube-style), and its drip-feed intervals last as long as the
 * shop's (`DRIP_FEED_MINUTE_MS`).
 *
 * Unless `SANDBOX_SECOND_PROVIDER=false`, a second sandbox provider runs beside it: the same
 * catalogue (same service ids) at `SANDBOX_SECOND_PRICE_FACTOR` times the prices, over the other
 * protocol, with its own state file and key, never refusing; the first then refuses every
 * `SANDBOX_PROVIDER_REFUSE_EVERY`-th order (7 by default), so orders it refuses go on to the second
 * (the services' next source, `addSandboxFallbacks`).
 */
export async function startExternalParts(env: Env): Promise<ExternalParts> {
  const sandbox: ExternalParts['sandbox'] = {};
  let envProvider: EnvProvider;
  const envProviders: EnvProvider[] = [];
  if (env.PROVIDER === 'sandbox') {
    const common = {
      orderSeconds: env.SANDBOX_ORDER_SECONDS,
      dripMinuteMs: env.DRIP_FEED_MINUTE_MS,
      serviceCount: env.SANDBOX_SERVICE_COUNT,
      latencyMs: parseLatencyRange(env.SANDBOX_PROVIDER_LATENCY_MS),
      rateLimitPerSecond: env.SANDBOX_PROVIDER_RATE_LIMIT,
    };
    const second = env.SANDBOX_SECOND_PROVIDER;
    sandbox.provider = await startSandboxProvider({
      ...common,
      stateFile: resolve(env.DATA_DIR, 'sandbox-provider.json'),
      refuseEvery: env.SANDBOX_PROVIDER_REFUSE_EVERY ?? (second ? 7 : 0),
    });
    const protocol = env.SANDBOX_PROVIDER_PROTOCOL;
    const callsPerSecond = env.PROVIDER_RATE_LIMIT ?? env.SANDBOX_PROVIDER_RATE_LIMIT;
    envProvider = { name: 'Sandbox', protocol, url: urlFor(sandbox.provider, protocol), key: sandbox.provider.apiKey, callsPerSecond, sandbox: true };
    if (second) {
      // Its own key, so that neither answers the other's (and each keeps its own rate limit).
      sandbox.second = await startSandboxProvider({
        ...common,
        stateFile: resolve(env.DATA_DIR, 'sandbox-provider-2.json'),
        apiKey: `sandbox-2-${randomBytes(8).toString('hex')}`,
        priceFactor: env.SANDBOX_SECOND_PRICE_FACTOR,
      });
      const other = otherProtocol(protocol);
      envProviders.push({ name: 'Sandbox 2', protocol: other, url: urlFor(sandbox.second, other), key: sandbox.second.apiKey, callsPerSecond, sandbox: true, envSlot: SANDBOX_SLOT_2 });
    }
  } else {
    const url = env.PROVIDER_URL!;
    envProvider = { name: new URL(url).hostname, protocol: env.PROVIDER, url, key: env.PROVIDER_KEY!, callsPerSecond: env.PROVIDER_RATE_LIMIT ?? 0, sandbox: false };
  }

  let epoint: PaymentGateway;
  const sandboxMethods: PaymentMethodKind[] = [];
  if (env.PAYMENT_GATEWAY === 'sandbox') {
    sandbox.gateway = await startSandboxGateway({});
    epoint = createGateway({ kind: 'sandbox', baseUrl: sandbox.gateway.url, publicKey: sandbox.gateway.publicKey, privateKey: sandbox.gateway.privateKey });
    // The sandbox shop takes bank transfers too, to a demonstration account.
    sandboxMethods.push('epoint', 'bank');
  } else {
    epoint = createGateway({ kind: 'epoint', baseUrl: env.EPOINT_URL, publicKey: env.EPOINT_PUBLIC_KEY!, privateKey: env.EPOINT_PRIVATE_KEY! });
  }
  // Payriff: the real one with its key; the sandbox Payriff beside the sandbox gateway; else none (the method stays off).
  let payriff: PaymentGateway | undefined;
  if (env.PAYRIFF_SECRET_KEY) {
    payriff = createGateway({ kind: 'payriff', baseUrl: env.PAYRIFF_URL, secretKey: env.PAYRIFF_SECRET_KEY });
  } else if (env.PAYMENT_GATEWAY === 'sandbox') {
    sandbox.payriff = await startSandboxPayriff({});
    payriff = createGateway({ kind: 'payriff', baseUrl: sandbox.payriff.url, secretKey: sandbox.payriff.secretKey });
    sandboxMethods.push('payriff');
  }
  // PayTR: the real one with its keys; the sandbox of its protocol beside the sandbox card
  // gateway; otherwise none (the method stays off).
  let paytr: PaymentGateway | undefined;
  if (env.PAYTR_MERCHANT_ID && env.PAYTR_MERCHANT_KEY && env.PAYTR_MERCHANT_SALT) {
    paytr = createGateway({
      kind: 'paytr', baseUrl: env.PAYTR_URL, merchantId: env.PAYTR_MERCHANT_ID, merchantKey: env.PAYTR_MERCHANT_KEY, merchantSalt: env.PAYTR_MERCHANT_SALT, testMode: env.PAYTR_TEST_MODE,
    });
  } else if (env.PAYMENT_GATEWAY === 'sandbox') {
    sandbox.paytr = await startSandboxPaytr({});
    const s = sandbox.paytr;
    paytr = createGateway({ kind: 'paytr', baseUrl: s.origin, merchantId: s.merchantId, merchantKey: s.merchantKey, merchantSalt: s.merchantSalt, testMode: true });
    sandboxMethods.push('paytr');
  }
  const gateways = gatewayRegistry({ epoint, ...(payriff ? { payriff } : {}), ...(paytr ? { paytr } : {}) });

  return {
    envProvider,
    envProviders: [envProvider, ...envProviders],
    gateways,
    sandboxMethods,
    sandbox,
    setPublicUrl(url) {
      sandbox.gateway?.setCallbackUrl(new URL(PAYMENT_CALLBACK_PATH, url).toString());
      sandbox.payriff?.setCallbackUrl(new URL(callbackPath('payriff'), url).toString());
      sandbox.paytr?.setCallbackUrl(new URL(callbackPath('paytr'), url).toString());
    },
    async close() {
      await sandbox.provider?.close();
      await sandbox.second?.close();
      await sandbox.gateway?.close();
      await sandbox.payriff?.close();
      await sandbox.paytr?.close();
    },
  };
}
