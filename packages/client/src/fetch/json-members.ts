/**
 * Reading JSON parsed by core's parseJsonInOrder (objects as Maps, members in order) or by JSON.parse (plain
 * objects), whichever a caller hands over: a test or an older caller may give either.
 */

/** A JSON object's members, in order; undefined when `value` is not an object. */
export function jsonMembers(value: unknown): Iterable<[string, unknown]> | undefined {
  if (value instanceof Map) return value as Map<string, unknown>;
  return isPlainObject(value) ? Object.entries(value) : undefined;
}

/** A JSON object as a record, to read its named members; undefined when `value` is not an object. */
export function jsonFields(value: unknown): Record<string, unknown> | undefined {
  if (value instanceof Map) return Object.fromEntries(value as Map<string, unknown>);
  return isPlainObject(value) ? value : undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
