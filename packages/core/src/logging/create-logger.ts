/**
 * The pino logger every confbus process writes through — server, CLI and client alike: JSON lines with ISO-8601
 * times for log shippers, or pino-pretty's readable lines for a person at a terminal (`confbus.logging.format`,
 * default `auto`: pretty exactly when the destination is a TTY). Secrets are redacted by path as a second line
 * of defence; the first is never putting them in a log object.
 *
 * Imported as `@confbus/core/logging`, apart from core's I/O-free main entry: it is the one module of core
 * that writes (to stdout, or the destination given), and importing `@confbus/core` does not load pino.
 */
import { createRequire } from 'node:module';
import { pino, stdTimeFunctions, type DestinationStream, type Logger } from 'pino';
import type PinoPretty from 'pino-pretty';
import { type Settings, SettingsError } from '../settings/settings.js';

export type LogFormat = 'auto' | 'pretty' | 'json';
export const LOG_FORMATS: readonly LogFormat[] = ['auto', 'pretty', 'json'];
const FORMAT_KEY = 'confbus.logging.format';

export interface LoggerOptions {
  readonly level: string;
  readonly format?: LogFormat;
  /** The `name` field of every line (`confbus-server`, `confbus-client`). */
  readonly name?: string;
  /** Where lines go; default stdout. */
  readonly destination?: DestinationStream & { isTTY?: boolean };
}

export function createLogger(options: LoggerOptions): Logger {
  const destination = options.destination ?? process.stdout;
  const format = options.format ?? 'auto';
  const pretty = format === 'pretty' || (format === 'auto' && destination.isTTY === true);
  const pinoOptions = {
    ...(options.name === undefined ? {} : { name: options.name }),
    level: options.level,
    timestamp: stdTimeFunctions.isoTime,
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
  // Loaded only for a terminal: it is a fifth of what a command loads before it starts (`confbus run` starts
  // its child after it), and a service logging JSON never needs it. A CommonJS package, so require() loads it
  // synchronously, as createLogger is.
  const pinoPretty = createRequire(import.meta.url)('pino-pretty') as typeof PinoPretty;
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

/** The logger a process runs with, from `logging.level.root` and `confbus.logging.format`. */
export function loggerFromSettings(
  settings: Settings,
  options: Omit<LoggerOptions, 'level' | 'format'> = {},
): Logger {
  const format = settings.optionalString(FORMAT_KEY) ?? 'auto';
  if (!(LOG_FORMATS as readonly string[]).includes(format)) {
    throw new SettingsError(
      `Setting '${FORMAT_KEY}' must be one of ${LOG_FORMATS.join(', ')} (got '${format}')`,
      FORMAT_KEY,
      settings.sourceOf(FORMAT_KEY) ?? 'default',
    );
  }
  const level = settings.optionalString('logging.level.root') ?? 'info';
  return createLogger({ ...options, level, format: format as LogFormat });
}
