/**
 * Query parameters of the console API, validated the same way everywhere: a bad value is a 400 with Spring's
 * error body naming the parameter and what is accepted. Lists are paged with `offset` and `limit`.
 */
import { ConfbusError, type ConsolePaged } from '@confbus/core';
import { serverErrors } from '../errors.js';

export type Query = Record<string, unknown>;

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 500;

export interface Page {
  offset: number;
  limit: number;
}

export function badRequest(message: string): ConfbusError {
  return new ConfbusError(serverErrors.CONFBUS_CONSOLE_BAD_REQUEST, message);
}

/** One optional text parameter; repeating it is an error, not "the last one wins". */
export function optionalText(query: Query, name: string): string | undefined {
  const value = query[name];
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') throw badRequest(`Parameter '${name}' must be given once`);
  return value;
}

export function requiredText(query: Query, name: string): string {
  const value = optionalText(query, name);
  if (value === undefined) throw badRequest(`Parameter '${name}' is required`);
  return value;
}

export function choice<T extends string>(query: Query, name: string, allowed: readonly T[], fallback: T): T {
  const value = optionalText(query, name) ?? fallback;
  if (!(allowed as readonly string[]).includes(value))
    throw badRequest(`Parameter '${name}' must be one of ${allowed.join(', ')}`);
  return value as T;
}

export function page(query: Query, defaultLimit = DEFAULT_PAGE_SIZE): Page {
  return {
    offset: integer(query, 'offset', 0, 0, 1_000_000),
    limit: integer(query, 'limit', defaultLimit, 1, MAX_PAGE_SIZE),
  };
}

export function paginate<T>(items: readonly T[], { offset, limit }: Page): ConsolePaged<T> {
  return { items: items.slice(offset, offset + limit), total: items.length, offset, limit };
}

function integer(query: Query, name: string, fallback: number, min: number, max: number): number {
  const text = optionalText(query, name);
  if (text === undefined) return fallback;
  const value = /^\d{1,7}$/.test(text) ? Number(text) : Number.NaN;
  if (!(value >= min && value <= max))
    throw badRequest(`Parameter '${name}' must be an integer from ${min} to ${max}`);
  return value;
}
