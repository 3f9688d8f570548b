// Test helper for the Git layer tests: a pino-compatible logger that records every call.

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
