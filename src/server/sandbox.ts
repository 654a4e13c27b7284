import { resolve } from 'node:path';
import { startSandboxGateway, type SandboxGateway } from '../../sandbox/gateway';
import { parseLatencyRange, startSandboxProvider, type SandboxProvider } from '../../sandbox/provider';
import type { Env } from './env';
import { createGateway, type PaymentGateway } from './gateways';
import { createPacer, createProvider, type SmmProvider } from './providers';

export interface ExternalParts {
  provider: SmmProvider;
  gateway: PaymentGateway;
  /** The sandbox servers running in this process, when any. */
  sandbox: { provider?: SandboxProvider; gateway?: SandboxGateway };
  /** Tells the sandbox gateway where to post callbacks once the server's address is known. */
  setPublicUrl(url: string): void;
  close(): Promise<void>;
}

export const PAYMENT_CALLBACK_PATH = '/api/payments/callback';

/**
 * The SMM provider and the card gateway: the real ones when configured, otherwise sandbox
 * servers on loopback that speak the same protocols (docs/ARCHITECTURE.md#sandbox). The sandbox provider keeps its
 * orders in the data folder so a restart does not lose them; the shop talks to it over SMM v2
 * (`SANDBOX_PROVIDER_PROTOCOL`, or QQTube-style), and its drip-feed intervals last as long as the
 * shop's (`DRIP_FEED_MINUTE_MS`).
 */
export async function startExternalParts(env: Env): Promise<ExternalParts> {
  const sandbox: ExternalParts['sandbox'] = {};
  let provider: SmmProvider;
  if (env.PROVIDER === 'sandbox') {
    sandbox.provider = await startSandboxProvider({
      stateFile: resolve(env.DATA_DIR, 'sandbox-provider.json'),
      orderSeconds: env.SANDBOX_ORDER_SECONDS,
      dripMinuteMs: env.DRIP_FEED_MINUTE_MS,
      serviceCount: env.SANDBOX_SERVICE_COUNT,
      latencyMs: parseLatencyRange(env.SANDBOX_PROVIDER_LATENCY_MS),
      rateLimitPerSecond: env.SANDBOX_PROVIDER_RATE_LIMIT,
    });
    const pacer = createPacer(env.PROVIDER_RATE_LIMIT ?? env.SANDBOX_PROVIDER_RATE_LIMIT);
    const protocol = env.SANDBOX_PROVIDER_PROTOCOL;
    const url = protocol === 'qqtube' ? sandbox.provider.qqtubeUrl : sandbox.provider.v2Url;
    provider = createProvider({ protocol, url, key: sandbox.provider.apiKey, pacer });
  } else {
    provider = createProvider({ protocol: env.PROVIDER, url: env.PROVIDER_URL!, key: env.PROVIDER_KEY!, pacer: createPacer(env.PROVIDER_RATE_LIMIT ?? 0) });
  }

  let gateway: PaymentGateway;
  if (env.PAYMENT_GATEWAY === 'sandbox') {
    sandbox.gateway = await startSandboxGateway({});
    gateway = createGateway({ kind: 'sandbox', baseUrl: sandbox.gateway.url, publicKey: sandbox.gateway.publicKey, privateKey: sandbox.gateway.privateKey });
  } else {
    gateway = createGateway({ kind: 'epoint', baseUrl: env.EPOINT_URL, publicKey: env.EPOINT_PUBLIC_KEY!, privateKey: env.EPOINT_PRIVATE_KEY! });
  }

  return {
    provider,
    gateway,
    sandbox,
    setPublicUrl(url) {
      sandbox.gateway?.setCallbackUrl(new URL(PAYMENT_CALLBACK_PATH, url).toString());
    },
    async close() {
      await sandbox.provider?.close();
      await sandbox.gateway?.close();
    },
  };
}
