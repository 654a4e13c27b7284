import type { ReactNode } from 'react';

/**
 * A part of a page the server goes on writing after its first render (docs/decisions/0035): the
 * first state is rendered in place, in a live region; each later state the page's stream yields
 * (app/page.ts `PageStream`) is written after it, in the same answer, with a style that hides
 * the one before. No script: the browser shows each as it arrives, and a screen reader hears it
 * (it is added inside the live region).
 */

/** Where the later states go: the server cuts the page's HTML here (server/web/renderer.ts). */
export const STREAM_POINT = /<template data-artim-stream=""><\/template>/;

/** The first state, in the live region the later ones are added to. */
export function StreamedSteps({ children }: { children: ReactNode }) {
  return (
    <div role="status" aria-live="polite" className="flex w-full flex-col items-center">
      <div data-stream-step="0" className="flex w-full justify-center">
        {children}
      </div>
      <template data-artim-stream="" />
    </div>
  );
}

/** A later state's HTML, `n` from 1, replacing the one before it on the screen. */
export const streamStep = (n: number, html: string) =>
  `<style>[data-stream-step="${n - 1}"]{display:none}</style><div data-stream-step="${n}" class="flex w-full justify-center">${html}</div>`;
