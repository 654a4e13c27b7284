/**
 * Runs the sandbox card gateway as its own process:
 *   npx tsx sandbox/gateway/main.ts [--port 4020] [--host 127.0.0.1] [--callback-url URL]
 *                                   [--public-key K] [--private-key K] [--delay-ms 3000]
 * Environment variables SANDBOX_GATEWAY_PORT, _HOST, _CALLBACK_URL, _PUBLIC_KEY, _PRIVATE_KEY and
 * _DELAY_MS give the same settings. Faults are switched over HTTP at /__control.
 */
import { parseArgs } from 'node:util';
import { startSandboxGateway } from './server';

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    host: { type: 'string' },
    'callback-url': { type: 'string' },
    'public-key': { type: 'string' },
    'private-key': { type: 'string' },
    'delay-ms': { type: 'string' },
  },
});
const env = (name: string) => process.env[`SANDBOX_GATEWAY_${name}`] || undefined;
const int = (v: string | undefined) => (v === undefined ? undefined : Number.parseInt(v, 10));

const callbackUrl = values['callback-url'] ?? env('CALLBACK_URL');
const gateway = await startSandboxGateway({
  port: int(values.port ?? env('PORT')) ?? 4020,
  host: values.host ?? env('HOST'),
  callbackUrl,
  publicKey: values['public-key'] ?? env('PUBLIC_KEY'),
  privateKey: values['private-key'] ?? env('PRIVATE_KEY'),
  delayMs: int(values['delay-ms'] ?? env('DELAY_MS')),
});

console.log(`Sandbox card gateway (Epoint protocol)
  API base:     ${gateway.url}
  public key:   ${gateway.publicKey}
  private key:  ${gateway.privateKey}
  callback URL: ${callbackUrl ?? '(none yet; POST {"callbackUrl": "…"} to /__control)'}
  controls:     ${gateway.origin}/__control`);

const stop = () => void gateway.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
