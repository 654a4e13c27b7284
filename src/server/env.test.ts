import { describe, expect, it } from 'vitest';
import { EnvError, parseEnv } from './env';

describe('environment', () => {
  it('has working defaults for the embedded setup', () => {
    const env = parseEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.DATA_DIR).toBe('./.data');
    expect(env.SANDBOX).toBe(true);
  });

  it('names the variable of a wrong value', () => {
    expect(() => parseEnv({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => parseEnv({ DATABASE_URL: 'not a url' })).toThrow(/DATABASE_URL/);
    expect(() => parseEnv({ PORT: 'eighty' })).toThrow(EnvError);
  });

  it('refuses sandbox parts and missing secrets in production', () => {
    expect(() => parseEnv({ NODE_ENV: 'production', AUTH_SECRET: 'x'.repeat(32), PUBLIC_URL: 'https://artim.az' })).toThrow(/sandbox/);
    expect(() =>
      parseEnv({ NODE_ENV: 'production', ALLOW_SANDBOX_IN_PRODUCTION: 'true', PUBLIC_URL: 'https://artim.az' }),
    ).toThrow(/AUTH_SECRET/);
    const env = parseEnv({
      NODE_ENV: 'production',
      AUTH_SECRET: 'x'.repeat(32),
      PUBLIC_URL: 'https://artim.az',
      PROVIDER: 'qqtube',
      PROVIDER_URL: 'https://provider.example/v1-api',
      PROVIDER_KEY: 'k',
      PAYMENT_GATEWAY: 'epoint',
      EPOINT_PUBLIC_KEY: 'i000',
      EPOINT_PRIVATE_KEY: 'p',
      SMTP_URL: 'smtps://user:pass@smtp.example.com:465',
      PROVIDER_KEYS_SECRET: 'y'.repeat(32),
    });
    expect(env.SANDBOX).toBe(false);
  });

  it('refuses production without SMTP, even with the sandbox allowed', () => {
    const production = { NODE_ENV: 'production', AUTH_SECRET: 'x'.repeat(32), PUBLIC_URL: 'https://artim.az', ALLOW_SANDBOX_IN_PRODUCTION: 'true' };
    expect(() => parseEnv(production)).toThrow(/SMTP_URL/);
    expect(parseEnv({ ...production, SMTP_URL: 'smtp://mail.example.com:587', PROVIDER_KEYS_SECRET: 'y'.repeat(32) }).SMTP_URL).toBe('smtp://mail.example.com:587');
  });

  it('requires in production a secret of at least 32 characters to seal the providers’ keys', () => {
    const production = { NODE_ENV: 'production', AUTH_SECRET: 'x'.repeat(32), PUBLIC_URL: 'https://artim.az', ALLOW_SANDBOX_IN_PRODUCTION: 'true', SMTP_URL: 'smtp://mail.example.com:587' };
    expect(() => parseEnv(production)).toThrow(/PROVIDER_KEYS_SECRET/);
    expect(() => parseEnv({ ...production, PROVIDER_KEYS_SECRET: 'short' })).toThrow(/PROVIDER_KEYS_SECRET/);
    expect(parseEnv({ ...production, PROVIDER_KEYS_SECRET: 'y'.repeat(32) }).PROVIDER_KEYS_SECRET).toBe('y'.repeat(32));
    // Outside production one is generated into DATA_DIR.
    expect(parseEnv({}).PROVIDER_KEYS_SECRET).toBeUndefined();
  });

  it('listens on loopback while a sandbox part runs, unless HOST says otherwise', () => {
    expect(parseEnv({}).HOST).toBe('127.0.0.1');
    expect(parseEnv({ HOST: '0.0.0.0' }).HOST).toBe('0.0.0.0');
    const real = { PROVIDER: 'qqtube', PROVIDER_URL: 'https://provider.example/v1-api', PROVIDER_KEY: 'k', PAYMENT_GATEWAY: 'epoint', EPOINT_PUBLIC_KEY: 'i000', EPOINT_PRIVATE_KEY: 'p' };
    expect(parseEnv(real).HOST).toBe('0.0.0.0');
    expect(parseEnv({ ...real, SANDBOX: 'true' }).HOST).toBe('127.0.0.1');
  });

  it('requires the provider URL and key for a real provider', () => {
    expect(() => parseEnv({ PROVIDER: 'smm-v2' })).toThrow(/PROVIDER_URL/);
  });

  it('a separate worker needs the web instances’ secret for provider keys', async () => {
    const { checkWorkerEnv } = await import('./worker');
    const real = { DATABASE_URL: 'postgres://db.example/artim', PROVIDER: 'qqtube', PROVIDER_URL: 'https://provider.example/v1-api', PROVIDER_KEY: 'k', PAYMENT_GATEWAY: 'epoint', EPOINT_PUBLIC_KEY: 'i000', EPOINT_PRIVATE_KEY: 'p' };
    expect(() => checkWorkerEnv(parseEnv(real))).toThrow(/PROVIDER_KEYS_SECRET/);
    expect(() => checkWorkerEnv(parseEnv({ ...real, PROVIDER_KEYS_SECRET: 'y'.repeat(32) }))).not.toThrow();
  });

  it('takes PayTR’s three merchant keys together or not at all', () => {
    expect(parseEnv({}).PAYTR_MERCHANT_ID).toBeUndefined();
    expect(parseEnv({}).PAYTR_URL).toBe('https://www.paytr.com');
    expect(() => parseEnv({ PAYTR_MERCHANT_ID: '123456', PAYTR_MERCHANT_KEY: 'k' })).toThrow(/PAYTR_MERCHANT_SALT/);
    expect(() => parseEnv({ PAYTR_MERCHANT_ID: 'shop', PAYTR_MERCHANT_KEY: 'k', PAYTR_MERCHANT_SALT: 's' })).toThrow(/PAYTR_MERCHANT_ID/);
    expect(parseEnv({ PAYTR_MERCHANT_ID: '123456', PAYTR_MERCHANT_KEY: 'k', PAYTR_MERCHANT_SALT: 's', PAYTR_TEST_MODE: 'true' })).toMatchObject({
      PAYTR_MERCHANT_ID: '123456', PAYTR_TEST_MODE: true,
    });
  });
});
