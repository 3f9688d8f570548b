/**
 * The structured logger every confbus package writes to. It has pino's call shape — fields first, then the
 * message — so a pino logger fits as is and log lines keep their fields as fields (never packed into the
 * message). Messages and fields never hold secret values.
 */
export interface Logger {
  debug(fields: object, message?: string): void;
  info(fields: object, message?: string): void;
  warn(fields: object, message?: string): void;
  error(fields: object, message?: string): void;
  /** A logger that adds `bindings` (e.g. `{ component: 'git' }`) to every line. */
  child(bindings: Record<string, unknown>): Logger;
  /** Whether lines of `level` are written (pino has it); lets hot paths skip building DEBUG lines. */
  isLevelEnabled?(level: string): boolean;
}

/**
 * Whether `logger` writes DEBUG lines, so a line that costs something to build (a refresh's, say) is built only
 * when it will be written; a logger that cannot tell is assumed to write them.
 */
export function isDebugEnabled(logger: Logger): boolean {
  return logger.isLevelEnabled?.('debug') ?? true;
}

/** Drops everything: for tests and embedders that do not want confbus's log lines. */
export const silentLogger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  child: () => silentLogger,
  isLevelEnabled: () => false,
};
