import { QqtubeProvider } from './qqtube';
import { SmmV2Provider } from './smmV2';
import type { Pacer } from './pacing';
import type { ProviderProtocol, SmmProvider } from './types';

export * from './types';
export { createPacer, type Pacer } from './pacing';
export { QqtubeProvider } from './qqtube';
export { SmmV2Provider } from './smmV2';
export { mapQqtubeStatus, mapV2Status, guessPlatform, guessType } from './mapping';

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
