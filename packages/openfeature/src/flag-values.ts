/**
 * Reads one flag from the configuration and turns it into the type asked for, or into the OpenFeature error
 * the spec names: FLAG_NOT_FOUND (no key), TYPE_MISMATCH (a value of another type), PARSE_ERROR (a value that
 * cannot be read: a broken placeholder, an object flag's JSON text that does not parse).
 */
import { ConfigClientError, type BoundObject, type BoundValue } from '@confbus/client';
import { isJavaDouble, type PropertyValue } from '@confbus/core';
import { messageOf } from '@confbus/core/internal';
import { FlagNotFoundError, ParseError, TypeMismatchError, type JsonValue } from '@openfeature/server-sdk';
import type { FlagSource } from './flag-source.js';

/** A flag's raw form: one value (`features.x=true`), or the keys under it (`features.x.a=1`) as an object. */
export type RawFlag =
  | { readonly key: string; readonly value: PropertyValue }
  | { readonly key: string; readonly object: BoundObject | BoundValue[] };

export function readFlag(source: FlagSource, prefix: string, flagKey: string): RawFlag {
  const key = `${prefix}${flagKey}`;
  const value = guarded(flagKey, key, () => source.get(key));
  if (value !== undefined) return { key, value };
  const object = guarded(flagKey, key, () => source.bind(key));
  if (Object.keys(object).length === 0) {
    throw new FlagNotFoundError(
      `Flag '${flagKey}' not found: no configuration key ${key} (nor keys under it)`,
    );
  }
  // `features.x[0]`, `features.x[1]`: bind() gives a prefix that is itself a list as an object by index; integer
  // keys iterate in ascending order.
  const isList = Object.keys(object).every((name) => /^\d+$/.test(name));
  return { key, object: isList ? Object.values(object) : object };
}

/** A read that failed (a placeholder that does not resolve, a placeholder bomb): the value cannot be parsed. */
function guarded<T>(flagKey: string, key: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw new ParseError(`Flag '${flagKey}' (${key}) cannot be read: ${messageOf(error)}`, { cause: error });
  }
}

export function booleanOf(source: FlagSource, flagKey: string, flag: RawFlag): boolean {
  return coerced(flagKey, flag, 'a boolean', () => source.getBoolean(flag.key));
}

export function numberOf(source: FlagSource, flagKey: string, flag: RawFlag): number {
  return coerced(flagKey, flag, 'a number', () => source.getNumber(flag.key));
}

/** Configuration is text in Spring's model (a .properties file has nothing else): any scalar reads as a string. */
export function stringOf(source: FlagSource, flagKey: string, flag: RawFlag): string {
  return coerced(flagKey, flag, 'a string', () => source.getString(flag.key));
}

/** The client's Spring-style coercion (`on` → true, `0x10` → 16); a value it refuses is a type mismatch. */
function coerced<T>(flagKey: string, flag: RawFlag, wanted: string, read: () => T | undefined): T {
  if ('object' in flag) {
    throw new TypeMismatchError(`Flag '${flagKey}' is an object (keys under ${flag.key}), not ${wanted}`);
  }
  let value: T | undefined;
  try {
    value = read();
  } catch (error) {
    if (error instanceof ConfigClientError && error.code === 'CONFBUS_BAD_VALUE') {
      throw new TypeMismatchError(`Flag '${flagKey}': ${error.message}`, { cause: error });
    }
    throw new ParseError(`Flag '${flagKey}' (${flag.key}) cannot be read: ${messageOf(error)}`, {
      cause: error,
    });
  }
  // Removed between the two reads by a refresh: as if it had not been there.
  if (value === undefined)
    throw new FlagNotFoundError(`Flag '${flagKey}' not found: no configuration key ${flag.key}`);
  return value;
}

/**
 * An object flag: the keys under it as a nested object (`features.banner.text` → `{ text }`, lists as arrays), or
 * one value holding JSON text of an object or array.
 */
export function objectOf(flagKey: string, flag: RawFlag): JsonValue {
  if ('object' in flag) return jsonOf(flag.object);
  if (typeof flag.value !== 'string') {
    throw new TypeMismatchError(`Flag '${flagKey}' (${flag.key}) is a ${typeof flag.value}, not an object`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(flag.value);
  } catch (error) {
    throw new ParseError(`Flag '${flagKey}' (${flag.key}) is not valid JSON: ${messageOf(error)}`, {
      cause: error,
    });
  }
  if (typeof parsed !== 'object' || parsed === null) {
    throw new TypeMismatchError(
      `Flag '${flagKey}' (${flag.key}) holds JSON ${parsed === null ? 'null' : typeof parsed}, not an object or array`,
    );
  }
  return parsed as JsonValue;
}

/** Bound values as JSON: a YAML float as its number, an integer beyond 2^53 as its exact digits. */
function jsonOf(value: BoundValue): JsonValue {
  if (Array.isArray(value)) return value.map(jsonOf);
  if (isJavaDouble(value)) return value.value;
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, JsonValue> = {};
    for (const [key, child] of Object.entries(value)) out[key] = jsonOf(child);
    return out;
  }
  return value;
}
