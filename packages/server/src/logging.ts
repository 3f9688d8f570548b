/**
 * The server's logger: core's shared factory (`@confbus/core/logging`, the same one the client uses), its lines
 * named `confbus-server`. JSON with ISO-8601 times, or pretty lines on a terminal (`confbus.logging.format`).
 */
import type { Settings } from '@confbus/core';
import {
  createLogger as createConfbusLogger,
  loggerFromSettings as confbusLoggerFromSettings,
  type LoggerOptions,
} from '@confbus/core/logging';
import type { Logger } from 'pino';

export { LOG_FORMATS, type LogFormat, type LoggerOptions } from '@confbus/core/logging';

const NAME = 'confbus-server';

export function createLogger(options: LoggerOptions): Logger {
  return createConfbusLogger({ name: NAME, ...options });
}

/** The logger `confbus server` runs with, from `logging.level.root` and `confbus.logging.format`. */
export function loggerFromSettings(settings: Settings): Logger {
  return confbusLoggerFromSettings(settings, { name: NAME });
}
