/**
 * A test's values as the server would send them: nested objects and arrays flattened to Spring's keys
 * (`{ db: { hosts: ['a'] } }` → `db.hosts[0]`); keys already written that way are kept; null and undefined leave
 * the key unset.
 */
import type { PropertyValue } from '@confbus/core';

export type TestValue =
  PropertyValue | null | undefined | readonly TestValue[] | { readonly [key: string]: TestValue };
export type TestValues = { readonly [key: string]: TestValue };

export function flattenValues(values: TestValues): Map<string, PropertyValue> {
  const out = new Map<string, PropertyValue>();
  const walk = (prefix: string, value: TestValue): void => {
    if (value === null || value === undefined) return;
    if (Array.isArray(value)) {
      (value as readonly TestValue[]).forEach((item, index) => walk(`${prefix}[${index}]`, item));
    } else if (typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) walk(prefix === '' ? key : `${prefix}.${key}`, child);
    } else {
      out.set(prefix, value);
    }
  };
  walk('', values);
  return out;
}
