import { resolve } from 'node:path';
import { startSandboxGateway, type SandboxGateway } from '../../sandbox/gateway';
import { parseLatencyRange, startSandboxProvider, type SandboxProvider } from '../../sandbox/provider';
import type { Env } from './env';
import { createGateway, type PaymentGateway } from './gateways';
import type { EnvProvider } from './providers';

export interface ExternalParts {
  /** The first provider of a fresh shop (`ensureEnvProvider` keeps it in `providers`). */
  envProvider: EnvProvider;
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
  let envProvider: EnvProvider;
  if (env.PROVIDER === 'sandbox') {
    sandbox.provider = await startSandboxProvider({
      stateFile: resolve(env.DATA_DIR, 'sandbox-provider.json'),
      orderSeconds: env.SANDBOX_ORDER_SECONDS,
      dripMinuteMs: env.DRIP_FEED_MINUTE_MS,
      serviceCount: env.SANDBOX_SERVICE_COUNT,
      latencyMs: parseLatencyRange(env.SANDBOX_PROVIDER_LATENCY_MS),
      rateLimitPerSecond: env.SANDBOX_PROVIDER_RATE_LIMIT,
    });
    const protocol = env.SANDBOX_PROVIDER_PROTOCOL;
    const url = protocol === 'qqtube' ? sandbox.provider.qqtubeUrl : sandbox.provider.v2Url;
    envProvider = { name: 'Sandbox', protocol, url, key: sandbox.provider.apiKey, callsPerSecond: env.PROVIDER_RATE_LIMIT ?? env.SANDBOX_PROVIDER_RATE_LIMIT, sandbox: true };
  } else {
    const url = env.PROVIDER_URL!;
    envProvider = { name: new URL(url).hostname, protocol: env.PROVIDER, url, key: env.PROVIDER_KEY!, callsPerSecond: env.PROVIDER_RATE_LIMIT ?? 0, sandbox: false };
  }

  let gateway: PaymentGateway;
  if (env.PAYMENT_GATEWAY === 'sandbox') {
    sandbox.gateway = await startSandboxGateway({});
    gateway = createGateway({ kind: 'sandbox', baseUrl: sandbox.gateway.url, publicKey: sandbox.gateway.publicKey, privateKey: sandbox.gateway.privateKey });
  } else {
    gateway = createGateway({ kind: 'epoint', baseUrl: env.EPOINT_URL, publicKey: env.EPOINT_PUBLIC_KEY!, privateKey: env.EPOINT_PRIVATE_KEY! });
  }

  return {
    envProvider,
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
