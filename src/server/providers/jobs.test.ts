import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startSandboxProvider, type SandboxProvider } from '../../../sandbox/provider';
import type { Database } from '../db/client';
import { providers } from '../db/schema';
import { createLogger } from '../logger';
import { createTestDatabase } from '../testing/db';
import { readBalances } from './jobs';
import { keyBox } from './secrets';
import { openProviderRegistry } from './stored';

const box = keyBox('b'.repeat(40));
let database: Database;
let sandbox: SandboxProvider;

beforeAll(async () => {
  database = await createTestDatabase();
  sandbox = await startSandboxProvider({ orderSeconds: 60, balance: '1234.5678' });
});
afterAll(async () => {
  await sandbox.close();
  await database.close();
});

describe('the providers’ balances on a schedule', () => {
  it('stores each enabled provider’s balance; one that fails is logged, the others are still read, nothing is thrown', async () => {
    const row = async (name: string, url: string, over: Partial<typeof providers.$inferInsert> = {}) =>
      (await database.db.insert(providers).values({ name, protocol: 'smm-v2', url, keyEncrypted: box.seal(sandbox.apiKey), keyHint: 'x', ...over }).returning())[0]!;
    // The failing one comes first: the one after it is read all the same.
    const down = await row('down', 'http://127.0.0.1:9/api/v2', { createdAt: new Date(Date.now() - 60_000) });
    const up = await row('up', sandbox.v2Url);
    const off = await row('off', sandbox.v2Url, { enabled: false });
    const warnings: unknown[] = [];
    const logger = createLogger('silent');
    logger.warn = ((obj: unknown) => void warnings.push(obj)) as typeof logger.warn;
    const registry = await openProviderRegistry(database, { box, logger, listen: false });
    try {
      expect(await readBalances(database.db, registry, logger)).toEqual({ read: 1, failed: 1 });
    } finally {
      await registry.close();
    }
    const byId = async (id: string) => (await database.db.select().from(providers).where(eq(providers.id, id)))[0]!;
    expect(await byId(up.id)).toMatchObject({ balance: '1234.5678', balanceCurrency: 'USD' });
    expect((await byId(up.id)).balanceAt).toBeInstanceOf(Date);
    expect(await byId(down.id)).toMatchObject({ balance: null, balanceAt: null });
    expect(await byId(off.id)).toMatchObject({ balance: null, balanceAt: null });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ provider: down.id });
  });
});
