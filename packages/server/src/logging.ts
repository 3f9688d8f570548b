/**
 * The server's pino logger: JSON lines with ISO-8601 times for log shippers, or pino-pretty's readable lines
 * for a person at a terminal (`confbus.logging.format`, default `auto`: pretty exactly when stdout is a TTY).
 * Secrets are redacted by path as a second line of defence; the first is never putting them in a log object.
 */
import { type Settings, SettingsError } from '@confbus/core';
import pino, { type DestinationStream, type Logger } from 'pino';
import pinoPretty from 'pino-pretty';

export type LogFormat = 'auto' | 'pretty' | 'json';
export const LOG_FORMATS: readonly LogFormat[] = ['auto', 'pretty', 'json'];

export interface LoggerOptions {
  readonly level: string;
  readonly format?: LogFormat;
  readonly name?: string;
  /** Where lines go; default stdout. */
  readonly destination?: DestinationStream & { isTTY?: boolean };
}

export function createLogger(options: LoggerOptions): Logger {
  const destination = options.destination ?? process.stdout;
  const format = options.format ?? 'auto';
  const pretty = format === 'pretty' || (format === 'auto' && destination.isTTY === true);
  const pinoOptions = {
    name: options.name ?? 'confbus-server',
    level: options.level,
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: {
      paths: [
        'password',
        '*.password',
        'headers.authorization',
        'req.headers.authorization',
        'secret',
        '*.secret',
      ],
      censor: '******',
    },
  };
  if (!pretty) return pino(pinoOptions, destination);
  // Synchronous, in-process: a worker-thread transport would lose the last lines of a crash.
  const prettyStream = pinoPretty({
    destination: destination as NodeJS.WritableStream,
    colorize: destination.isTTY === true,
    translateTime: 'SYS:yyyy-mm-dd HH:MM:ss.l o',
    ignore: 'pid,hostname',
    sync: true,
  });
  return pino(pinoOptions, prettyStream);
}

/** The logger `confbus server` runs with, from `logging.level.root` and `confbus.logging.format`. */
export function loggerFromSettings(settings: Settings): Logger {
  const key = 'confbus.logging.format';
  const format = settings.string(key);
  if (!(LOG_FORMATS as readonly string[]).includes(format)) {
    throw new SettingsError(
      `Setting '${key}' must be one of ${LOG_FORMATS.join(', ')} (got '${format}')`,
      key,
      settings.sourceOf(key) ?? 'default',
    );
  }
  return createLogger({ level: settings.string('logging.level.root'), format: format as LogFormat });
}
