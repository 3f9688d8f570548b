// Test helpers for the Git layer tests: a logger that records every call, and polling with a deadline.

export interface LogEntry {
  level: 'debug' | 'info' | 'warn' | 'error';
  obj: object | string;
  msg?: string;
}

export interface CaptureLogger {
  debug(o: object | string, m?: string): void;
  info(o: object | string, m?: string): void;
  warn(o: object | string, m?: string): void;
  error(o: object | string, m?: string): void;
  readonly entries: LogEntry[];
  /** Everything logged, serialised, for "secret never appears" assertions. */
  text(): string;
}

export function captureLogger(): CaptureLogger {
  const entries: LogEntry[] = [];
  const at = (level: LogEntry['level']) => (obj: object | string, msg?: string) => {
    entries.push({ level, obj, msg });
  };
  return {
    entries,
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    text: () => entries.map((e) => JSON.stringify(e)).join('\n'),
  };
}

// Waits for a condition by polling with a deadline (never a fixed sleep as synchronisation).
export async function waitFor<T>(
  condition: () => T | undefined | false | Promise<T | undefined | false>,
  { timeoutMs = 20_000, intervalMs = 20, what = 'condition' } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
