/**
 * Errors crossing back from a worker thread: structured cloning keeps an Error's message but not its class, so a
 * confbus error travels as data and is rebuilt with its code on the main thread. Anything else stays a plain
 * Error (a fault, answered 500 CONFBUS_INTERNAL).
 */
import { ConfbusError, ConfigParseError, type ConfigParseErrorDetails, coreErrors } from '@confbus/core';

export type WorkerError =
  | { kind: 'parse'; file: string; reason: string; details: ConfigParseErrorDetails }
  | { kind: 'confbus'; code: string; message: string };

/** In the worker: the error as data, or rethrown when it is not a confbus error. */
export function errorAsData(error: unknown): WorkerError {
  if (error instanceof ConfigParseError) {
    const details: ConfigParseErrorDetails = {};
    if (error.document !== undefined) details.document = error.document;
    if (error.line !== undefined) details.line = error.line;
    if (error.column !== undefined) details.column = error.column;
    return { kind: 'parse', file: error.file, reason: error.reason, details };
  }
  if (error instanceof ConfbusError && Object.hasOwn(coreErrors, error.code))
    return { kind: 'confbus', code: error.code, message: error.message };
  throw error;
}

/** On the main thread: the confbus error again. */
export function errorFromData(data: WorkerError): ConfbusError {
  if (data.kind === 'parse') return new ConfigParseError(data.file, data.reason, data.details);
  return new ConfbusError(coreErrors[data.code as keyof typeof coreErrors], data.message);
}
