import { buildApp, type AppDeps } from '../app';
import type { Database } from '../db/client';
import { seed } from '../db/seed';
import { parseEnv } from '../env';
import { createLogger } from '../logger';
import { keyBox } from '../providers';

/** The Hono app on a test database, without web rendering or background jobs. */
export async function createTestApp(database: Database, overrides: Partial<AppDeps> = {}) {
  const env = parseEnv({ NODE_ENV: 'test', JOBS: 'false', LOG_LEVEL: 'silent' });
  await seed(database.db, { adminEmail: 'admin@test.local', adminPassword: 'Admin-Pass-123!' });
  const deps: AppDeps = {
    env,
    database,
    logger: createLogger(process.env.TEST_LOG_LEVEL ?? 'silent'),
    publicUrl: 'http://localhost:3000',
    authSecret: 'test-secret-test-secret-test-secret-0123',
    providerKeys: keyBox('test-provider-keys-secret-0123456789abcdef'),
    ...overrides,
  };
  return { app: buildApp(deps), deps };
}

/** The app answering real HTTP on a free loopback port (for what calls it from outside: a gateway's callbacks, fetch). */
export async function serveOverHttp(app: { fetch: (request: Request) => Response | Promise<Response> }): Promise<{ url: string; close: () => Promise<void> }> {
  const { serve } = await import('@hono/node-server');
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
      resolve({ url: `http://127.0.0.1:${info.port}`, close: () => new Promise<void>((done) => server.close(() => done())) }),
    );
  });
}
