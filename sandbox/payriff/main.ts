/**
 * Runs the sandbox Payriff as its own process:
 *   npx tsx sandbox/payriff/main.ts [--port 4021] [--host 127.0.0.1] [--callback-url URL]
 *                                   [--secret-key K] [--delay-ms 3000]
 * Environment variables SANDBOX_PAYRIFF_PORT, _HOST, _CALLBACK_URL, _SECRET_KEY and _DELAY_MS give
 * the same settings. Faults are switched over HTTP at /__control.
 */
import { parseArgs } from 'node:util';
import { startSandboxPayriff } from './server';

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    host: { type: 'string' },
    'callback-url': { type: 'string' },
    'secret-key': { type: 'string' },
    'delay-ms': { type: 'string' },
  },
});
const env = (name: string) => process.env[`SANDBOX_PAYRIFF_${name}`] || undefined;
const int = (v: string | undefined) => (v === undefined ? undefined : Number.parseInt(v, 10));

const callbackUrl = values['callback-url'] ?? env('CALLBACK_URL');
const payriff = await startSandboxPayriff({
  port: int(values.port ?? env('PORT')) ?? 4021,
  host: values.host ?? env('HOST'),
  callbackUrl,
  secretKey: values['secret-key'] ?? env('SECRET_KEY'),
  delayMs: int(values['delay-ms'] ?? env('DELAY_MS')),
});

console.log(`Sandbox Payriff (order API v3)
  API base:     ${payriff.url}
  secret key:   ${payriff.secretKey}
  callback URL: ${callbackUrl ?? "(each order's own callbackUrl)"}
  controls:     ${payriff.origin}/__control`);

const stop = () => void payriff.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
