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
}

/** Drops everything: for tests and embedders that do not want confbus's log lines. */
export const silentLogger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  child: () => silentLogger,
};
