import { createPacer, type Pacer } from './pacing';
import { QqtubeProvider } from './qqtube';
import { SmmV2Provider } from './smmV2';
import type { ProviderProtocol, SmmProvider } from './types';

export interface ProviderConfig {
  protocol: ProviderProtocol;
  url: string;
  key: string;
  /** Bounds every call; the defaults are 10 s per call and 20 s for the catalogue. */
  timeoutMs?: number;
  /** Spaces the calls to this provider (see createPacer). */
  pacer?: Pacer;
  /** Status batches (or single-order calls) asked at once. */
  statusConcurrency?: number;
}

export function createProvider(config: ProviderConfig): SmmProvider {
  const options = { url: config.url, key: config.key, timeoutMs: config.timeoutMs, pacer: config.pacer, statusConcurrency: config.statusConcurrency };
  switch (config.protocol) {
    case 'qqtube':
      return new QqtubeProvider(options);
    case 'smm-v2':
      return new SmmV2Provider(options);
  }
}

/** A client for a provider as the shop keeps it: its own pacer, `callsPerSecond` at most. */
export const clientFor = (p: { protocol: ProviderProtocol; url: string; key: string; callsPerSecond: number }): SmmProvider =>
  createProvider({ protocol: p.protocol, url: p.url, key: p.key, pacer: createPacer(p.callsPerSecond) });
