/** Spring's String→Boolean and String→Number conversions; errors name the key, not the value of a secret. */
import { isJavaDouble, isSecretKey, type PropertyValue } from '@confbus/core';
import { ConfigClientError } from '../errors.js';

const TRUE = new Set(['true', 'on', 'yes', '1']);
const FALSE = new Set(['false', 'off', 'no', '0']);

function shown(key: string, value: PropertyValue): string {
  return isSecretKey(key) ? '(hidden)' : typeof value === 'string' ? JSON.stringify(value) : String(value);
}

export function toBoolean(key: string, value: PropertyValue): boolean {
  if (typeof value === 'boolean') return value;
  const text = String(value).trim().toLowerCase();
  if (TRUE.has(text)) return true;
  if (FALSE.has(text)) return false;
  throw new ConfigClientError(
    'CONFBUS_BAD_VALUE',
    `Configuration key '${key}' = ${shown(key, value)} is not a boolean (true/false, on/off, yes/no, 1/0)`,
  );
}

export function toNumber(key: string, value: PropertyValue): number {
  if (typeof value === 'number') return value;
  // A bigint beyond 2^53 becomes the nearest number, as Number('12345678901234567891') would.
  if (typeof value === 'bigint') return Number(value);
  if (isJavaDouble(value)) return value.value;
  const text = String(value).trim();
  // Number() also takes hex (0x1F) like Spring's NumberUtils, but would turn '' and 'true' into 0/NaN.
  const parsed = text === '' || typeof value === 'boolean' ? Number.NaN : Number(text);
  if (!Number.isFinite(parsed)) {
    throw new ConfigClientError(
      'CONFBUS_BAD_VALUE',
      `Configuration key '${key}' = ${shown(key, value)} is not a number`,
    );
  }
  return parsed;
}

export function toText(value: PropertyValue): string {
  return String(value);
}
