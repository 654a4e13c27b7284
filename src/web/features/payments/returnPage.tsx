import type { ReactNode } from 'react';
import { data, type LoaderFunctionArgs } from 'react-router';
import { StreamedSteps } from '../../app/streamed';

/**
 * What the two payment return pages share (docs/decisions/0035): answered afresh for each request
 * and never kept (what they show is the payment's state now), and their first state in the place
 * the server writes the later ones.
 */
export function returnPageLoader(_args: LoaderFunctionArgs) {
  return data(null, { headers: { 'Cache-Control': 'no-store' } });
}

export function ReturnPageMain({ children }: { children: ReactNode }) {
  return (
    <main id="main" className="flex flex-1 items-center justify-center bg-slate-50 px-4 py-12 sm:py-20">
      <StreamedSteps>{children}</StreamedSteps>
    </main>
  );
}
