import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeDataDir, startAppProcess, type AppProcess } from '../../e2e/app-process';
import { announceGeneratedAdmin } from './db/seed';

describe('the generated admin password', () => {
  let app: AppProcess | undefined;
  afterAll(async () => {
    await app?.stop();
    if (app) removeDataDir(app.dataDir);
  });

  it('is shown on a terminal only; elsewhere it goes to a file in DATA_DIR readable by its owner', () => {
    const admin = { email: 'admin@artim.local', password: 'Ar-secret-password9!' };
    const dir = join(process.env.TMPDIR ?? '/tmp', `artim-announce-${process.pid}-${Date.now()}`);
    expect(announceGeneratedAdmin(admin, { isTTY: true, dataDir: dir })).toContain(admin.password);
    const logged = announceGeneratedAdmin(admin, { isTTY: false, dataDir: dir });
    expect(logged).not.toContain(admin.password);
    const file = join(dir, 'admin-password.txt');
    expect(logged).toContain(file);
    expect(readFileSync(file, 'utf8')).toBe(`${admin.email}\n${admin.password}\n`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    removeDataDir(dir);
  });

  it('never reaches the log of a shop started without a terminal, and the file’s password signs in', async () => {
    // The sandbox provider answers at once: its catalogue is not what this checks.
    app = await startAppProcess({ ADMIN_EMAIL: '', ADMIN_PASSWORD: '', JOBS: 'false', SANDBOX_PROVIDER_LATENCY_MS: '0' }, undefined, ['--no-web']);
    const [email, password] = readFileSync(join(app.dataDir, 'admin-password.txt'), 'utf8').trim().split('\n');
    expect(email).toBe('admin@artim.local');
    expect(app.output()).not.toContain(password!);
    expect(app.output()).toContain('admin-password.txt');
    const res = await fetch(`${app.url}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: app.url.replace('127.0.0.1', 'localhost') },
      body: JSON.stringify({ email, password }),
    });
    expect(res.status).toBe(200);
  }, 180_000);
});
