import { useMemo } from 'react';
import { encode } from 'uqr';

/**
 * A QR code drawn as SVG elements (no markup strings): the modules `uqr` encodes, dark ones as a
 * single path, on a white square with the light margin the QR standard asks for, so a phone's
 * camera finds the edges on any background. Sharp at every size (`crispEdges`). Loaded with the
 * screens that show one (e.g. the second factor's set-up), not with every page.
 */

/** Light modules around the code on each side (the standard's quiet zone). */
export const QR_QUIET_ZONE = 4;
/** Error correction: M restores up to 15 % of the modules, enough for a code read off a screen. */
export const QR_ECC = 'M';

/** The code's modules, row by row, `true` for dark, without a margin. */
export const qrModules = (text: string): boolean[][] => encode(text, { ecc: QR_ECC, border: 0 }).data;

/**
 * The dark modules as path commands: each run of dark modules in a row is one rectangle
 * (`M x y h n v1 h-n z`), shifted right and down by `offset` modules.
 */
export function qrPath(modules: readonly (readonly boolean[])[], offset = QR_QUIET_ZONE): string {
  const parts: string[] = [];
  modules.forEach((row, y) => {
    let x = 0;
    while (x < row.length) {
      if (!row[x]) {
        x += 1;
        continue;
      }
      const start = x;
      while (x < row.length && row[x]) x += 1;
      const run = x - start;
      parts.push(`M${start + offset} ${y + offset}h${run}v1h-${run}z`);
    }
  });
  return parts.join('');
}

/** `text` as a QR code, announced to screen readers as an image by `label`. */
export function QrCode({ text, label, className }: { text: string; label: string; className?: string }) {
  const modules = useMemo(() => qrModules(text), [text]);
  const side = modules.length + 2 * QR_QUIET_ZONE;
  return (
    <svg role="img" aria-label={label} viewBox={`0 0 ${side} ${side}`} shapeRendering="crispEdges" className={className} data-testid="qr-code">
      <rect width={side} height={side} fill="#fff" />
      <path d={qrPath(modules)} fill="#000" />
    </svg>
  );
}
