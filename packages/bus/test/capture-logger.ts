import type { Logger } from '@confbus/core';

export interface LogLine {
  level: 'debug' | 'info' | 'warn' | 'error';
  obj: object;
  msg: string | undefined;
}

/** A pino-like logger that keeps every line, so tests can wait on and inspect what was logged. */
export function captureLogger(): Logger & { lines: LogLine[]; text(): string } {
  const lines: LogLine[] = [];
  const at =
    (level: LogLine['level']) =>
    (obj: object, msg?: string): void => {
      lines.push({ level, obj, msg });
    };
  const logger = {
    lines,
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    text: () => lines.map((l) => `${l.level} ${l.msg ?? ''} ${JSON.stringify(l.obj)}`).join('\n'),
    child: (): Logger => logger,
  };
  return logger;
}
