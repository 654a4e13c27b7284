import { QqtubeProvider } from './qqtube';
import { SmmV2Provider } from './smmV2';
import type { ProviderProtocol, SmmProvider } from './types';

export * from './types';
export { QqtubeProvider } from './qqtube';
export { SmmV2Provider } from './smmV2';
export { mapQqtubeStatus, mapV2Status, guessPlatform, guessType } from './mapping';

export interface ProviderConfig {
  protocol: ProviderProtocol;
  url: string;
  key: string;
  /** Bounds every call; the defaults are 10 s per call and 20 s for the catalogue. */
  timeoutMs?: number;
}

export function createProvider(config: ProviderConfig): SmmProvider {
  const options = { url: config.url, key: config.key, timeoutMs: config.timeoutMs };
  switch (config.protocol) {
    case 'qqtube':
      return new QqtubeProvider(options);
    case 'smm-v2':
      return new SmmV2Provider(options);
  }
}
