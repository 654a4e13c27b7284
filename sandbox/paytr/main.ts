/**
 * Runs the PayTR sandbox as its own process:
 *   npx tsx sandbox/paytr/main.ts [--port 4030] [--host 127.0.0.1] [--callback-url URL]
 *                                 [--merchant-id ID] [--merchant-key K] [--merchant-salt S] [--delay-ms 3000]
 * Environment variables SANDBOX_PAYTR_PORT, _HOST, _CALLBACK_URL, _MERCHANT_ID, _MERCHANT_KEY,
 * _MERCHANT_SALT and _DELAY_MS give the same settings. Faults are switched over HTTP at /__control.
 */
import { parseArgs } from 'node:util';
import { startSandboxPaytr } from './server';

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    host: { type: 'string' },
    'callback-url': { type: 'string' },
    'merchant-id': { type: 'string' },
    'merchant-key': { type: 'string' },
    'merchant-salt': { type: 'string' },
    'delay-ms': { type: 'string' },
  },
});
const env = (name: string) => process.env[`SANDBOX_PAYTR_${name}`] || undefined;
const int = (v: string | undefined) => (v === undefined ? undefined : Number.parseInt(v, 10));

const callbackUrl = values['callback-url'] ?? env('CALLBACK_URL');
const paytr = await startSandboxPaytr({
  port: int(values.port ?? env('PORT')) ?? 4030,
  host: values.host ?? env('HOST'),
  callbackUrl,
  merchantId: values['merchant-id'] ?? env('MERCHANT_ID'),
  merchantKey: values['merchant-key'] ?? env('MERCHANT_KEY'),
  merchantSalt: values['merchant-salt'] ?? env('MERCHANT_SALT'),
  delayMs: int(values['delay-ms'] ?? env('DELAY_MS')),
});

console.log(`Sandbox PayTR (iFrame API)
  PAYTR_URL:           ${paytr.origin}
  PAYTR_MERCHANT_ID:   ${paytr.merchantId}
  PAYTR_MERCHANT_KEY:  ${paytr.merchantKey}
  PAYTR_MERCHANT_SALT: ${paytr.merchantSalt}
  notification URL:    ${callbackUrl ?? '(none yet; POST {"callbackUrl": "…"} to /__control)'}
  controls:            ${paytr.origin}/__control`);

const stop = () => void paytr.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
