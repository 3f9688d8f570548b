/**
 * Each property source's keys in the order an environment JSON lists them, from the JSON as core's
 * parseJsonInOrder (or parseJson with `inOrder`) reads it: objects as Maps. Reading into objects instead would
 * move keys that are numbers (`2`, `10`) first, and hide the order a test means to check.
 */
export function sourceKeysOf(environment: unknown): string[][] {
  const sources = (environment as Map<string, unknown>).get('propertySources') as Map<string, unknown>[];
  return sources.map((source) => [...(source.get('source') as Map<string, unknown>).keys()]);
}
