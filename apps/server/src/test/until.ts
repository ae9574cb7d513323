/**
 * Waits until `check` holds, polling every `everyMs`; after `ms`, fails naming `what` was awaited, so a test whose
 * condition never comes fails with that message rather than the runner's timeout. The default leaves room for a
 * loaded machine and stays inside the test's own limit (vitest.config.ts).
 */
export async function until(
  check: () => boolean | Promise<boolean>,
  what: string,
  { ms = 20_000, everyMs = 5 }: { ms?: number; everyMs?: number } = {},
): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
