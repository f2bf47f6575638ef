/**
 * Retries `check` until it stops throwing: the public server sees the admin's changes on disk
 * through its watchers, within a few seconds. The last failure is thrown after `timeoutMs`.
 */
export async function eventuallyPasses(check: () => Promise<void>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
