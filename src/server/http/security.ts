import type { MiddlewareHandler } from 'hono';
import { createHash } from 'node:crypto';
import { secureHeaders } from 'hono/secure-headers';
import { CAPTURE_SCRIPT } from '../../web/islands/capture';

/** The one inline script pages carry (web/islands/capture.ts), allowed by its hash. */
export const CAPTURE_SCRIPT_SOURCE = `'sha256-${createHash('sha256').update(CAPTURE_SCRIPT).digest('base64')}'`;

/**
 * Security headers for every answer. Scripts only from our origin and the one inline script
 * whose hash is named (boot data travels as a non-executable JSON script); inline styles are allowed for the toast and dialog libraries.
 */
export function securityHeaders(opts: { production: boolean; dev?: boolean; extraConnect?: string[]; extraForm?: string[] }): MiddlewareHandler {
  const self = "'self'";
  return secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: [self],
      scriptSrc: opts.dev ? [self, "'unsafe-inline'"] : [self, CAPTURE_SCRIPT_SOURCE],
      styleSrc: [self, "'unsafe-inline'"],
      imgSrc: [self, 'data:'],
      fontSrc: [self, 'data:'],
      connectSrc: opts.dev ? [self, 'ws:', ...(opts.extraConnect ?? [])] : [self, ...(opts.extraConnect ?? [])],
      objectSrc: ["'none'"],
      baseUri: [self],
      formAction: [self, ...(opts.extraForm ?? [])],
      frameAncestors: ["'none'"],
    },
    strictTransportSecurity: opts.production ? 'max-age=31536000; includeSubDomains' : false,
    xFrameOptions: 'DENY',
    xContentTypeOptions: 'nosniff',
    referrerPolicy: 'strict-origin-when-cross-origin',
    crossOriginResourcePolicy: 'same-origin',
    crossOriginOpenerPolicy: 'same-origin',
    permissionsPolicy: { camera: [], microphone: [], geolocation: [] },
  });
}
