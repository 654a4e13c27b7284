import { configure } from '@testing-library/react';
import { afterAll, vi } from 'vitest';

/**
 * Testing Library's `findBy…` and `waitFor` wait for a state, not a moment: give them as long as
 * `expect.poll` (vitest.config.ts), so that a component whose lazy part loads slowly on a busy
 * machine (the QR code of the second factor, say) is waited for rather than failed after a second.
 */
configure({ asyncUtilTimeout: 30_000 });

/**
 * The DOM files share one window (vitest.config.ts: not isolated), so a global one file stubs
 * (a `requestIdleCallback` that never calls back, say) would reach every file after it, in
 * whatever order the run takes them. Each file's stubs end with the file.
 */
afterAll(() => {
  vi.unstubAllGlobals();
});
