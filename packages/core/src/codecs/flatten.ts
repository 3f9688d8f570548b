/**
 * Flattens nested maps and lists into Spring Boot's property names, following Spring's
 * `YamlProcessor`: maps become `a.b.c`, lists become `a.b[0]`, `a.b[1].c`. An empty map
 * vanishes, an empty list becomes "" and YAML null becomes "" (Spring reference §1,
 * "Flattening and types"). Non-string map keys (`1:`, `on:`) become `[1]`, `[true]`, and a
 * key that already starts with `[` is appended without a dot (`a: {"[b.c]": 1}` → `a[b.c]`).
 */
import { JavaDouble, type PropertyValue } from './property-value.js';

export type { PropertyValue } from './property-value.js';
/**
 * Properties in the order their source gave them (file lines, YAML documents, JDBC rows, Redis fields), as
 * Spring's LinkedHashMap-backed property sources keep them. A Map, not an object: an object moves keys that are
 * array indices (`2`, `10`) in front of the others, in numeric order, and treats `__proto__` specially.
 */
export type FlatProperties = ReadonlyMap<string, PropertyValue>;

/** Properties being built; handed on as FlatProperties. */
export type MutableFlatProperties = Map<string, PropertyValue>;

export function flattenProperties(
  value: unknown,
  prefix = '',
  out: MutableFlatProperties = new Map(),
): MutableFlatProperties {
  if (Array.isArray(value) || value instanceof Set) {
    const items = [...(value as Iterable<unknown>)];
    if (items.length === 0) {
      if (prefix !== '') out.set(prefix, '');
      return out;
    }
    items.forEach((item, index) => {
      flattenProperties(item, `${prefix}[${index}]`, out);
    });
    return out;
  }
  if (value instanceof Map) {
    for (const [key, item] of value) flattenProperties(item, joinKey(prefix, mapKey(key)), out);
    return out;
  }
  if (
    value !== null &&
    typeof value === 'object' &&
    !(value instanceof Date) &&
    !(value instanceof JavaDouble) &&
    !isBytes(value)
  ) {
    for (const [key, item] of Object.entries(value)) flattenProperties(item, joinKey(prefix, key), out);
    return out;
  }
  if (prefix === '') return out;
  out.set(prefix, toPropertyValue(value));
  return out;
}

/**
 * Sets a key as an own property even when it is `__proto__`, so a hostile key can neither
 * vanish nor replace the object's prototype (for records keyed by property name, such as origins).
 */
export function setOwnProperty<V>(target: Record<string, V>, key: string, value: V): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    target[key] = value;
  }
}

function mapKey(key: unknown): string {
  // Spring's YamlProcessor.asMap: "It has to be a map key in this case" (`[1.0]` for a Double key).
  return typeof key === 'string' ? key : `[${key === null || key === undefined ? 'null' : String(key)}]`;
}

function joinKey(prefix: string, key: string): string {
  if (prefix === '') return key;
  return key.startsWith('[') ? `${prefix}${key}` : `${prefix}.${key}`;
}

function isBytes(value: unknown): value is Uint8Array {
  return value instanceof Uint8Array;
}

function toPropertyValue(value: unknown): PropertyValue {
  if (value === null || value === undefined) return '';
  if (
    typeof value === 'string' ||
    typeof value === 'number' ||
    typeof value === 'bigint' ||
    typeof value === 'boolean' ||
    value instanceof JavaDouble
  )
    return value;
  if (value instanceof Date) return value.toISOString();
  // !!binary: Jackson writes byte[] as base64, so do the same.
  if (isBytes(value)) return Buffer.from(value).toString('base64');
  return String(value);
}
