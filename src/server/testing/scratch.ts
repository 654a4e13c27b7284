import { randomBytes } from 'node:crypto';
import pg from 'pg';

async function adminQuery(serverUrl: string, sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

/**
 * A database of its own on the PostgreSQL server of `serverUrl` (TEST_DATABASE_URL by default):
 * empty, or a copy of the database `template` names; `drop` removes it, connections and all.
 */
export async function createScratchDatabase(prefix: string, serverUrl = process.env.TEST_DATABASE_URL, template?: string) {
  if (!serverUrl) throw new Error('TEST_DATABASE_URL is not set');
  const name = `artim_${prefix}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  await adminQuery(serverUrl, `create database ${name}${template ? ` template ${pg.escapeIdentifier(template)}` : ''}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: () => adminQuery(serverUrl, `drop database if exists ${name} with (force)`),
  };
}
