/**
 * Reading a Spring environment from JSON (the config server's v1 plain values or v2 `{value, origin}`
 * descriptors, or the client's own backup) into core's `Environment`, with confbus's `decryptedKeys` marker of
 * the values a server decrypted.
 */
import type { Environment, FlatProperties, PropertySource, PropertyValue } from '@confbus/core';
import { ConfigClientError } from '../errors.js';

export function parseEnvironment(json: unknown, from: string): Environment {
  const bad = (what: string) =>
    new ConfigClientError(
      'CONFBUS_CONFIG_FETCH',
      `Config server ${from} sent an invalid environment: ${what}`,
    );
  if (!isRecord(json)) throw bad('not a JSON object');
  if (!Array.isArray(json.propertySources)) throw bad("'propertySources' is not an array");
  const propertySources = json.propertySources.map((entry: unknown, index): PropertySource => {
    if (!isRecord(entry)) throw bad(`propertySources[${index}] is not an object`);
    const source: FlatProperties = {};
    const raw = entry.source ?? {};
    if (!isRecord(raw)) throw bad(`propertySources[${index}].source is not an object`);
    // Object.keys, not entries: no [key, value] pair per property on every refresh.
    for (const key of Object.keys(raw)) {
      const value = raw[key];
      const plain = toPropertyValue(isRecord(value) && 'value' in value ? value.value : value);
      if (plain !== undefined) source[key] = plain;
    }
    const name = typeof entry.name === 'string' ? entry.name : `source-${index}`;
    const { decryptedKeys } = entry;
    if (decryptedKeys === undefined) return { name, source };
    if (!Array.isArray(decryptedKeys) || !decryptedKeys.every((key) => typeof key === 'string'))
      throw bad(`propertySources[${index}].decryptedKeys is not a list of keys`);
    return { name, source, decryptedKeys: decryptedKeys as string[] };
  });
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  return {
    name: typeof json.name === 'string' ? json.name : '',
    profiles: Array.isArray(json.profiles) ? json.profiles.map(String) : [],
    label: text(json.label),
    version: text(json.version),
    state: text(json.state),
    propertySources,
  };
}

function toPropertyValue(value: unknown): PropertyValue | undefined {
  if (
    typeof value === 'string' ||
    typeof value === 'number' ||
    typeof value === 'bigint' ||
    typeof value === 'boolean'
  )
    return value;
  if (value === null) return '';
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
