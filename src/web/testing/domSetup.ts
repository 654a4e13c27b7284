import { configure } from '@testing-library/react';

/**
 * Testing Library's `findBy…` and `waitFor` wait for a state, not a moment: give them as long as
 * `expect.poll` (vitest.config.ts), so that a component whose lazy part loads slowly on a busy
 * machine (the QR code of the second factor, say) is waited for rather than failed after a second.
 */
configure({ asyncUtilTimeout: 30_000 });
