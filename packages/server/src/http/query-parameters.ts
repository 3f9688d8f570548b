/** Typed reading of query parameters, with a 400 naming the parameter and the accepted range. */
import { ConfbusError } from '@confbus/core';
import { serverErrors } from '../errors.js';

export function integerParameter(
  query: unknown,
  name: string,
  range: { default: number; min: number; max: number },
): number {
  const raw = (query as Record<string, unknown> | undefined)?.[name];
  if (raw === undefined || raw === '') return range.default;
  const value = typeof raw === 'string' && /^\d{1,9}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(value) || value < range.min || value > range.max) {
    throw new ConfbusError(
      serverErrors.CONFBUS_BAD_QUERY_PARAMETER,
      `Query parameter '${name}' must be an integer from ${range.min} to ${range.max}`,
    );
  }
  return value;
}

/** `true` or `false` (absent or empty: the default); anything else is a 400 naming the parameter. */
export function booleanParameter(query: unknown, name: string, fallback: boolean): boolean {
  const raw = (query as Record<string, unknown> | undefined)?.[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true' || raw === 'false') return raw === 'true';
  throw new ConfbusError(
    serverErrors.CONFBUS_BAD_QUERY_PARAMETER,
    `Query parameter '${name}' must be true or false`,
  );
}
