import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseEnv } from './env';
import { startExternalParts, type ExternalParts } from './sandbox';
import { clientFor } from './providers';

const dir = mkdtempSync(join(tmpdir(), 'artim-sandbox-parts-'));
const started: ExternalParts[] = [];
afterAll(async () => {
  for (const parts of started) await parts.close();
  rmSync(dir, { recursive: true, force: true });
});

async function partsOf(extra: Record<string, string>): Promise<ExternalParts> {
  const dataDir = join(dir, String(started.length));
  mkdirSync(dataDir);
  const env = parseEnv({ NODE_ENV: 'test', DATA_DIR: dataDir, SANDBOX_PROVIDER_LATENCY_MS: '0', SANDBOX_PROVIDER_RATE_LIMIT: '0', ...extra });
  const parts = await startExternalParts(env);
  started.push(parts);
  return parts;
}

describe('the sandbox of a fresh shop', () => {
  it('speaks SMM v2 by default, so its services have the refill, cancel and drip-feed their provider gives them', async () => {
    const provider = clientFor((await partsOf({})).envProvider);
    expect(provider.protocol).toBe('smm-v2');
    const services = await provider.services();
    expect(services.length).toBeGreaterThan(200);
    const promising = services.filter((s) => /\d+d refill|lifetime refill/i.test(s.name));
    expect(promising.length).toBeGreaterThan(0);
    expect(promising.every((s) => s.refill)).toBe(true);
    expect(services.filter((s) => s.refill)).toEqual(promising);
    expect(services.some((s) => s.cancel)).toBe(true);
    expect(services.some((s) => s.dripfeed)).toBe(true);
  });

  it('speaks the QQTube-style API when asked to, which has no refill or cancel', async () => {
    const provider = clientFor((await partsOf({ SANDBOX_PROVIDER_PROTOCOL: 'qqtube' })).envProvider);
    expect(provider.protocol).toBe('qqtube');
    const services = await provider.services();
    expect(services.length).toBeGreaterThan(200);
    expect(services.some((s) => s.refill || s.cancel)).toBe(false);
    expect(() => parseEnv({ SANDBOX_PROVIDER_PROTOCOL: 'soap' })).toThrow(/SANDBOX_PROVIDER_PROTOCOL/);
  });
});
