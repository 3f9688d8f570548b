/**
 * Reading a Spring environment from JSON (the config server's v1 plain values or v2 `{value, origin}`
 * descriptors, or the client's own backup) into core's `Environment`, with confbus's `decryptedKeys` marker of
 * the values a server decrypted.
 */
import type { Environment, PropertySource, PropertyValue } from '@confbus/core';
import { ConfigClientError } from '../errors.js';
import { jsonFields, jsonMembers } from './json-members.js';

/** `parsed`: JSON as parseJsonInOrder reads it (each `source` keeps its order), or plain objects. */
export function parseEnvironment(parsed: unknown, from: string): Environment {
  const bad = (what: string) =>
    new ConfigClientError(
      'CONFBUS_CONFIG_FETCH',
      `Config server ${from} sent an invalid environment: ${what}`,
    );
  const json = jsonFields(parsed);
  if (json === undefined) throw bad('not a JSON object');
  if (!Array.isArray(json.propertySources)) throw bad("'propertySources' is not an array");
  const propertySources = json.propertySources.map((item: unknown, index): PropertySource => {
    const entry = jsonFields(item);
    if (entry === undefined) throw bad(`propertySources[${index}] is not an object`);
    const source = new Map<string, PropertyValue>();
    const members = jsonMembers(entry.source ?? {});
    if (members === undefined) throw bad(`propertySources[${index}].source is not an object`);
    for (const [key, value] of members) {
      // Spring's v2 media type: `{value, origin}`.
      const described = jsonFields(value);
      const plain = toPropertyValue(described && 'value' in described ? described.value : value);
      if (plain !== undefined) source.set(key, plain);
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
