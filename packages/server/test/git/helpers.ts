// Test helper for the Git layer tests: a core Logger that records every call.
import type { Logger } from '@confbus/core';

export interface LogEntry {
  level: 'debug' | 'info' | 'warn' | 'error';
  obj: object | string;
  msg?: string;
}

export interface CaptureLogger extends Logger {
  readonly entries: LogEntry[];
  /** Everything logged, serialised, for "secret never appears" assertions. */
  text(): string;
}

export function captureLogger(): CaptureLogger {
  const entries: LogEntry[] = [];
  const at = (level: LogEntry['level']) => (obj: object | string, msg?: string) => {
    entries.push({ level, obj, msg });
  };
  const logger: CaptureLogger = {
    entries,
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    text: () => entries.map((e) => JSON.stringify(e)).join('\n'),
    child: () => logger,
  };
  return logger;
}
