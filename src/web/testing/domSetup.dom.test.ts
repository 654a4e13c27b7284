import { getConfig } from '@testing-library/dom';
import { expect, it } from 'vitest';

// The tests on a page wait for a state as long as expect.poll does (./domSetup.ts): a second, the
// library's own default, failed a test whose lazy part loaded slowly on a busy machine.
it('gives findBy… and waitFor as long as expect.poll', () => {
  expect(getConfig().asyncUtilTimeout).toBeGreaterThanOrEqual(30_000);
});
