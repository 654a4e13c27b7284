/**
 * Runs `check` until it passes, every 50 ms, at most about 2.5 s: for what arrives
 * asynchronously, as change notices do (also on the instance that sent them).
 */
export async function eventually(check: () => Promise<void>): Promise<void> {
  for (let i = 0; ; i++) {
    try {
      return await check();
    } catch (err) {
      if (i > 50) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}
