/**
 * Flattens nested maps and lists into Spring Boot's property names: maps become `a.b.c`,
 * lists become `a.b[0]`, `a.b[1].c`. Empty maps and lists vanish, as in Boot's YAML loader;
 * YAML null becomes "" (Spring reference §1, "Flattening and types").
 */
export type PropertyValue = string | number | boolean;
export type FlatProperties = Record<string, PropertyValue>;

export function flattenProperties(value: unknown, prefix = '', out: FlatProperties = {}): FlatProperties {
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      flattenProperties(item, `${prefix}[${index}]`, out);
    });
    return out;
  }
  if (value instanceof Map) {
    for (const [key, item] of value) flattenProperties(item, joinKey(prefix, String(key)), out);
    return out;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) flattenProperties(item, joinKey(prefix, key), out);
    return out;
  }
  if (prefix === '') return out;
  out[prefix] = toPropertyValue(value);
  return out;
}

function joinKey(prefix: string, key: string): string {
  return prefix === '' ? key : `${prefix}.${key}`;
}

function toPropertyValue(value: unknown): PropertyValue {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Date) return value.toISOString();
  return String(value);
}
