// The one way tests wait for something that happens asynchronously: poll until it holds, never sleep.
import { setTimeout as delay } from 'node:timers/promises';

/**
 * Polls `probe` until it returns something other than `undefined`/`false`, and resolves with it (so a
 * boolean condition resolves `true`, a lookup resolves what it found). On timeout (default 60 s), rejects
 * naming `description` and the last value or error seen. The timeout is a safety net, never a measurement.
 */
export async function waitFor<T>(
  description: string,
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  options: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
      last = value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) {
      const detail = last instanceof Error ? last.message : JSON.stringify(last);
      throw new Error(`Timed out waiting for ${description} (last: ${detail})`);
    }
    await delay(options.intervalMs ?? 50);
  }
}
