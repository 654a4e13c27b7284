/**
 * Journey files run in this many lanes at once (`E2E_LANES`, default 2): one vitest worker and one
 * app per lane (e2e/global-setup.ts), each file talking only to its lane's app (e2e/browser.ts).
 */
export const E2E_LANES = Math.max(1, Math.floor(Number(process.env.E2E_LANES ?? 2)) || 1);
