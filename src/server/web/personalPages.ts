import { constants, crc32, deflateRawSync } from 'node:zlib';
import type { Context, MiddlewareHandler } from 'hono';
import { hasSessionCookie, type Me } from '../../core/contracts/account';
import { LOCALES, requestLanguage } from '../../core/i18n';
import { BOOT_DATA_ID, scriptJson } from '../../web/app/document';
import { formatMoney } from '../../web/lib/format';
import { keptBody, rendersPerVisitor } from './renderer';

/**
 * Pages for signed-in customers from a shell kept in memory (docs/decisions/0023-personal-pages.md).
 *
 * A customer's page differs from another customer's page at the same address, in the same
 * language, only where it shows who they are: their name, e-mail, id and balance, in the HTML and
 * in the boot data. So the page is rendered once per address, language and *shape* of the
 * identity (roles, the balance's sign, whether there is a name, the second factor, the discount —
 * what decides which parts a page shows), for a made-up customer whose fields are markers, and cut
 * at the markers. A request is then the cut page with the customer's own fields put in, escaped
 * for where they stand (HTML text or the boot data's JSON), gzipped from pieces compressed once:
 * no render, no call of the app's own API.
 *
 * A shell is trusted only when the cut page, filled with the fields of a second made-up customer,
 * is exactly what the renderer renders for that customer; a page that shows anything derived from
 * those fields (an initial, a rounded balance) fails that check and is rendered for every request,
 * as is a page whose server render reads more of the visitor's data than who they are
 * (`perVisitor` in app/page.ts), and every page of a team member. The shells hold nothing of any
 * customer: the made-up customer's fields are all that is in them, and the key never names one.
 */
export interface PersonalPages {
  /** Answers a signed-in customer's page request from a shell when it can (after the page guards). */
  serve: MiddlewareHandler;
  clear(): void;
  readonly size: number;
}

/** The fields of the made-up customers; every other field of the identity is the real one's. */
type Field = 'id' | 'email' | 'fullName' | 'balanceMicros';
/** Where a field stands in the page: which field, shown as money in `locale` (else as it is), in the boot data's JSON or in HTML. */
interface Slot {
  field: Field;
  locale: string | null;
  json: boolean;
}
interface Shell {
  kind: 'shell';
  status: number;
  /** The page between the slots (one more than the slots), each compressed once (`compressPiece`). */
  pieces: Piece[];
  slots: Slot[];
  expires: number;
}
/** An address whose page cannot be cut: rendered for every request. */
interface Render {
  kind: 'render';
  expires: number;
}
type Entry = Shell | Render;

const KEPT = new Set([200, 404]);
const MARKER = 'x7shell';
const SENTINELS = { A: 987_654_321_987, B: 876_543_219_876 } as const;

/** The made-up customer `variant` of the shape of `me`. */
function madeUp(me: Me, variant: 'A' | 'B'): Me {
  const sign = Math.sign(me.balanceMicros);
  return {
    ...me,
    id: `${MARKER}${variant}idq`,
    email: `${MARKER}${variant}emailq`,
    fullName: me.fullName ? `${MARKER}${variant}nameq` : '',
    balanceMicros: sign * SENTINELS[variant],
  };
}

/** What decides which parts a page shows besides the fields: customers of one shape share the shell. */
const shapeOf = (me: Me) =>
  [me.roles.join(','), Math.sign(me.balanceMicros), me.fullName ? 'named' : 'unnamed', me.twoFactorEnabled, me.twoFactorRequired, JSON.stringify(me.discount)].join('|');

/** A team member's pages depend on their role's permissions: rendered for them. */
const isCustomer = (roles: readonly string[]) => roles.every((r) => r === 'user');

/** Text as React escapes it in HTML text and attribute values. */
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' })[ch]!);

function fieldText(slot: Slot, me: Me): string {
  const value = me[slot.field];
  const text = typeof value === 'number' ? (slot.locale ? formatMoney(value, 'USD', slot.locale) : String(value)) : value;
  return slot.json ? scriptJson(text).slice(1, -1) : escapeHtml(text);
}

/** The page cut at the made-up customer's fields; null when they overlap or leave a trace behind. */
function cut(html: string, me: Me): { pieces: string[]; slots: Slot[] } | null {
  const needles: { text: string; field: Field; locale: string | null }[] = [
    { text: me.id, field: 'id', locale: null },
    { text: me.email, field: 'email', locale: null },
  ];
  if (me.fullName) needles.push({ text: me.fullName, field: 'fullName', locale: null });
  if (me.balanceMicros !== 0) {
    needles.push({ text: String(me.balanceMicros), field: 'balanceMicros', locale: null });
    for (const locale of new Set(Object.values(LOCALES))) needles.push({ text: formatMoney(me.balanceMicros, 'USD', locale), field: 'balanceMicros', locale });
  }
  const found: { start: number; end: number; field: Field; locale: string | null }[] = [];
  for (const n of needles) {
    for (let at = html.indexOf(n.text); at >= 0; at = html.indexOf(n.text, at + n.text.length)) found.push({ start: at, end: at + n.text.length, field: n.field, locale: n.locale });
  }
  found.sort((a, b) => a.start - b.start);
  const bootStart = html.indexOf(`id="${BOOT_DATA_ID}"`);
  const bootEnd = bootStart < 0 ? -1 : html.indexOf('</script>', bootStart);
  const pieces: string[] = [];
  const slots: Slot[] = [];
  let from = 0;
  for (const f of found) {
    if (f.start < from) return null;
    pieces.push(html.slice(from, f.start));
    slots.push({ field: f.field, locale: f.locale, json: f.start > bootStart && f.start < bootEnd });
    from = f.end;
  }
  pieces.push(html.slice(from));
  const sentinel = String(Math.abs(me.balanceMicros)).slice(0, 6);
  if (pieces.some((p) => p.includes(MARKER) || (me.balanceMicros !== 0 && p.includes(sentinel)))) return null;
  return { pieces, slots };
}

const fill = (pieces: readonly string[], slots: readonly Slot[], me: Me) => pieces.reduce((html, piece, i) => html + (i ? fieldText(slots[i - 1]!, me) : '') + piece, '');

/**
 * A kept piece of a page: its UTF-8, its raw deflate ending byte-aligned, and what its checksum
 * needs, computed once: its CRC-32 and the operator that moves a CRC past its length.
 */
export interface Piece {
  raw: Buffer;
  deflated: Buffer;
  crc: number;
  shift: number;
}

const CRC_POLY = 0xedb88320;
/** a·b modulo the CRC-32 polynomial, bit-reflected as zlib's crc32_combine computes it (a ≠ 0). */
function multModP(a: number, b: number): number {
  let m = 0x80000000;
  let p = 0;
  for (;;) {
    if (a & m) {
      p ^= b;
      if ((a & (m - 1)) === 0) break;
    }
    m >>>= 1;
    b = b & 1 ? (b >>> 1) ^ CRC_POLY : b >>> 1;
  }
  return p >>> 0;
}
/** x^(2^k) modulo the polynomial, k = 0…31. */
const X2N: number[] = [];
for (let k = 0, p = 0x40000000; k < 32; k++, p = multModP(p, p)) X2N.push(p);
/** The operator x^(8·bytes) that moves a CRC past `bytes` bytes of zeros. */
function crcShift(bytes: number): number {
  let p = 0x80000000;
  for (let n = bytes, k = 3; n > 0; n = Math.floor(n / 2), k++) if (n % 2) p = multModP(X2N[k & 31]!, p);
  return p;
}
/** The CRC-32 of a then b, from the CRC of a, and b's CRC and shift (zlib's crc32_combine). */
export const crcCombine = (crcA: number, crcB: number, shiftB: number) => (multModP(shiftB, crcA) ^ crcB) >>> 0;

const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0xff]);
/** The last deflate block: fixed codes, end of block at once. */
const LAST_BLOCK = Buffer.from([0x03, 0x00]);

/** A stored (uncompressed) deflate block of `data`, starting byte-aligned (after a sync flush). */
function storedBlocks(data: Buffer): Buffer[] {
  const out: Buffer[] = [];
  for (let at = 0; at < data.length; at += 0xffff) {
    const part = data.subarray(at, at + 0xffff);
    const head = Buffer.alloc(5);
    head.writeUInt16LE(part.length, 1);
    head.writeUInt16LE(~part.length & 0xffff, 3);
    out.push(head, part);
  }
  return out;
}

/**
 * The page as one gzip member: the kept pieces compressed once (each ends with a sync flush, so
 * it starts and ends on a byte and refers to nothing outside itself), the customer's fields in
 * stored blocks between them, the last block, and the checksum and length of the whole — the
 * pieces' checksums combined from theirs, computed once, so only the fields' bytes are summed.
 */
export function gzipPieces(pieces: readonly Piece[], fields: readonly Buffer[]): Buffer {
  const parts: Buffer[] = [GZIP_HEADER];
  let crc = 0;
  let size = 0;
  pieces.forEach((piece, i) => {
    if (i > 0 && fields[i - 1]!.length) {
      const field = fields[i - 1]!;
      parts.push(...storedBlocks(field));
      // zlib.crc32 of nothing answers 0 whatever it is given to start from: only non-empty fields are summed.
      crc = crc32(field, crc);
      size += field.length;
    }
    parts.push(piece.deflated);
    crc = crcCombine(crc, piece.crc, piece.shift);
    size += piece.raw.length;
  });
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(size >>> 0, 4);
  parts.push(LAST_BLOCK, trailer);
  return Buffer.concat(parts);
}

/** A piece of a kept page, compressed and summed once. */
export function compressPiece(raw: Buffer): Piece {
  return { raw, deflated: deflateRawSync(raw, { level: 6, finishFlush: constants.Z_SYNC_FLUSH }), crc: raw.length ? crc32(raw) : 0, shift: crcShift(raw.length) };
}

function answer(c: Context, shell: Shell, me: Me): Response {
  // A field shown several times the same way (the balance in the header, the wallet, the boot data) is written once.
  const written = new Map<string, Buffer>();
  const fields = shell.slots.map((slot) => {
    const key = `${slot.field}|${slot.locale}|${slot.json}`;
    let text = written.get(key);
    if (!text) written.set(key, (text = Buffer.from(fieldText(slot, me))));
    return text;
  });
  const gzip = /\bgzip\b/.test(c.req.header('accept-encoding') ?? '');
  const body = gzip ? gzipPieces(shell.pieces, fields) : Buffer.concat(shell.pieces.flatMap((p, i) => (i ? [fields[i - 1]!, p.raw] : [p.raw])));
  const headers = new Headers({
    'Content-Type': 'text/html; charset=utf-8',
    // Their name and balance: never stored by a shared cache, never answered to anyone else.
    'Cache-Control': 'private, no-store',
    Vary: 'Cookie, Accept-Encoding',
    'Content-Length': String(body.length),
  });
  if (gzip) headers.set('Content-Encoding', 'gzip');
  return new Response(c.req.method === 'HEAD' ? null : keptBody(body), { status: shell.status, headers });
}

export function createPersonalPages(opts: {
  /** The signed-in visitor of the request: their roles, and who they are when asked (null: no valid session). */
  visitor: (c: Context) => Promise<{ roles: readonly string[]; me: () => Promise<Me> } | null>;
  /**
   * Renders the page at `url` in `lang` for the made-up customer `me`, with nothing of the
   * request's own: no cookie but the language, the app's API asked without a session.
   */
  render: (url: string, lang: string, me: Me) => Promise<Response>;
  maxEntries?: number;
  ttlMs?: number;
  now?: () => number;
}): PersonalPages {
  const maxEntries = opts.maxEntries ?? 500;
  const ttlMs = opts.ttlMs ?? 60_000;
  const now = opts.now ?? Date.now;
  const entries = new Map<string, Entry>();
  const building = new Map<string, Promise<Entry>>();
  let generation = 0;

  async function page(url: string, lang: string, me: Me): Promise<{ status: number; html: string } | null> {
    const res = await opts.render(url, lang, me);
    const shareable = KEPT.has(res.status) && (res.headers.get('Content-Type') ?? '').startsWith('text/html') && !rendersPerVisitor(res);
    return shareable ? { status: res.status, html: await res.text() } : null;
  }

  async function build(url: string, lang: string, me: Me): Promise<Entry> {
    const a = madeUp(me, 'A');
    const b = madeUp(me, 'B');
    const [pageA, pageB] = await Promise.all([page(url, lang, a), page(url, lang, b)]);
    const expires = now() + ttlMs;
    if (!pageA || !pageB || pageA.status !== pageB.status) return { kind: 'render', expires };
    const shell = cut(pageA.html, a);
    if (!shell || fill(shell.pieces, shell.slots, b) !== pageB.html) return { kind: 'render', expires };
    return { kind: 'shell', status: pageA.status, pieces: shell.pieces.map((p) => compressPiece(Buffer.from(p))), slots: shell.slots, expires };
  }

  /**
   * The entry for `key`, made once however many requests wait for it. An entry past its time is
   * still answered from while its successor is made (a change empties the entries instead).
   */
  async function entryFor(key: string, url: string, lang: string, me: Me): Promise<Entry> {
    const kept = entries.get(key);
    if (kept && kept.expires > now()) return kept;
    let pending = building.get(key);
    if (!pending) {
      const started = generation;
      pending = build(url, lang, me).then((entry) => {
        building.delete(key);
        // A change while it was rendered may not be in it: used once, not kept.
        if (started === generation) {
          entries.delete(key);
          entries.set(key, entry);
          while (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
        }
        return entry;
      });
      pending.catch(() => building.delete(key));
      building.set(key, pending);
    }
    return kept ?? pending;
  }

  return {
    get size() {
      return entries.size;
    },
    serve: async (c, next) => {
      if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next();
      const cookie = c.req.header('cookie');
      if (!hasSessionCookie(cookie) || c.req.header('authorization')) return next();
      const visitor = await opts.visitor(c);
      // No valid session, or a team member: rendered for the request, as before.
      if (!visitor || !isCustomer(visitor.roles)) return next();
      const me = await visitor.me();
      const lang = requestLanguage(cookie, c.req.header('accept-language'));
      const url = new URL(c.req.url);
      const key = `${url.pathname}${url.search}|${lang}|${shapeOf(me)}`;
      // A shell that could not be made leaves the request to the renderer, which reports its own failure.
      const entry = await entryFor(key, c.req.url, lang, me).catch(() => null);
      if (!entry || entry.kind === 'render') return next();
      c.res = answer(c, entry, me);
    },
    clear: () => {
      generation++;
      entries.clear();
    },
  };
}
