/**
 * Errors the HTTP layer answers with, in Spring Boot's error body shape
 * (`timestamp`, `status`, `error`, `message`, `path`) plus a stable `code` for programs.
 */
import { STATUS_CODES } from 'node:http';

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const badRequest = (code: string, message: string): HttpError => new HttpError(400, code, message);
export const notFound = (code: string, message: string): HttpError => new HttpError(404, code, message);

export interface SpringErrorBody {
  timestamp: string;
  status: number;
  error: string;
  message: string;
  path: string;
  code: string;
}

export function springErrorBody(
  status: number,
  code: string,
  message: string,
  path: string,
): SpringErrorBody {
  return {
    timestamp: new Date().toISOString(),
    status,
    error: STATUS_CODES[status] ?? 'Error',
    message,
    // Only the path, never the query: a query string may carry tokens.
    path: path.split('?')[0] ?? path,
    code,
  };
}
