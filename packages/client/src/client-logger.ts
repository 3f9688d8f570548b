/**
 * The logger a client hands its application (`client.logger`): pino's calling convention, so both
 * `logger.info('text')` and `logger.info({ order }, 'text')` type-check and log. Internally confbus always calls
 * `(fields, message)`, the form every `Logger` implementation accepts; this wrapper turns a bare message into
 * that form, so a logger passed in need only implement the two-argument form.
 */
import type { Logger } from '@confbus/core';

/** One level: a message alone, or fields and an optional message (pino's signature). */
export interface LogFunction {
  (message: string): void;
  (fields: object, message?: string): void;
}

export interface ClientLogger extends Logger {
  debug: LogFunction;
  info: LogFunction;
  warn: LogFunction;
  error: LogFunction;
  child(bindings: Record<string, unknown>): ClientLogger;
}

export function clientLogger(inner: Logger): ClientLogger {
  const at =
    (level: 'debug' | 'info' | 'warn' | 'error'): LogFunction =>
    (fieldsOrMessage: object | string, message?: string) => {
      if (typeof fieldsOrMessage === 'string') inner[level]({}, fieldsOrMessage);
      else inner[level](fieldsOrMessage, message);
    };
  const logger: ClientLogger = {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    child: (bindings) => clientLogger(inner.child(bindings)),
  };
  const isLevelEnabled = inner.isLevelEnabled?.bind(inner);
  return isLevelEnabled === undefined ? logger : { ...logger, isLevelEnabled };
}
