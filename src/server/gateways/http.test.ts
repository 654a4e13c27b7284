import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../core/errors';
import { fetchText, postFormForJson, type GatewayCall } from './http';

/** A gateway that answers each path its own way: JSON, an HTTP error, not JSON, never, or a cut-off body. */
let server: Server;
let baseUrl: string;
const received: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      received.push(body);
      if (req.url === '/json') res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"success"}');
      else if (req.url === '/refused') res.writeHead(200).end('{"status":"error"}');
      else if (req.url === '/503') res.writeHead(503).end('{"status":"success"}');
      else if (req.url === '/garbage') res.writeHead(200).end('<html>');
      else if (req.url === '/cut') {
        res.writeHead(200, { 'content-length': '100' }).write('{"sta');
        setTimeout(() => res.destroy(), 20);
      }
      // '/silent' never answers.
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const call = (path: string, over: Partial<GatewayCall> = {}): GatewayCall => ({
  gateway: 'test', baseUrl, path, failure: 'PAYMENT_STATUS_UNKNOWN', timeoutMs: 2000, ...over,
});

async function failureOf(work: Promise<unknown>): Promise<AppError> {
  const err = await work.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe('a gateway call', () => {
  it('posts the form and returns the parsed JSON of a 2xx answer, whatever it says', async () => {
    await expect(postFormForJson(call('/json'), new URLSearchParams({ data: 'x y', signature: 'z' }))).resolves.toEqual({ status: 'success' });
    expect(received.at(-1)).toBe('data=x+y&signature=z');
    await expect(postFormForJson(call('/refused'), new URLSearchParams())).resolves.toEqual({ status: 'error' });
  });

  it('turns an HTTP error into the failure code with the status, even with a JSON body', async () => {
    const err = await failureOf(postFormForJson(call('/503', { failure: 'PAYMENT_NOT_CREATED' }), new URLSearchParams()));
    expect(err.code).toBe('PAYMENT_NOT_CREATED');
    expect(err.message).toBe('test /503: HTTP 503');
    expect(err.details).toEqual({ gateway: 'test', reason: 'http', httpStatus: 503 });
  });

  it('turns a body that is not JSON into bad_reply', async () => {
    const err = await failureOf(postFormForJson(call('/garbage'), new URLSearchParams()));
    expect(err.details).toEqual({ gateway: 'test', reason: 'bad_reply' });
  });

  it('turns no answer in time into timeout and no server into unreachable', async () => {
    const late = await failureOf(postFormForJson(call('/silent', { timeoutMs: 100 }), new URLSearchParams()));
    expect(late.details).toEqual({ gateway: 'test', reason: 'timeout' });
    const gone = await failureOf(postFormForJson(call('/json', { baseUrl: 'http://127.0.0.1:9' }), new URLSearchParams()));
    expect(gone.details).toEqual({ gateway: 'test', reason: 'unreachable' });
    // The logs say why when the network does: nothing listens on a port just given back.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const refused = await failureOf(postFormForJson(call('/json', { baseUrl: `http://127.0.0.1:${port}` }), new URLSearchParams()));
    expect(refused.details).toEqual({ gateway: 'test', reason: 'unreachable' });
    expect(refused.message).toBe('test /json: unreachable (ECONNREFUSED)');
  });

  it('counts a body cut off half way as no answer, not as a reply', async () => {
    const err = await failureOf(fetchText(call('/cut'), { method: 'GET' }));
    expect(err.code).toBe('PAYMENT_STATUS_UNKNOWN');
    expect(err.details).toEqual({ gateway: 'test', reason: 'unreachable' });
  });

  it('hands back any status and its text for the adapter to read', async () => {
    const { response, text } = await fetchText(call('/503'), { method: 'GET' });
    expect(response.status).toBe(503);
    expect(text).toBe('{"status":"success"}');
  });
});
