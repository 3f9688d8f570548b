/**
 * Spring's environment JSON with only Spring's members (plus confbus's `decryptedKeys`), plain or in Spring's v2
 * media type (`application/vnd.spring-cloud.config-server.v2+json`), where each value is written as
 * `{"value": …, "origin": "line:column"}` when its file recorded where it was written, as Spring's
 * PassthruEnvironmentRepository does. The origins travel as data on the property source (`origins`), so every
 * copy of a source carries them; a transform that changes a value drops its origin (server-side decryption:
 * Spring serves a decrypted value without one). A source the server makes itself can give every value one origin
 * (`sourceOrigin`: the `overrides` source's "Config server overrides").
 */
import { setOwnProperty, type FlatProperties } from '../codecs/flatten.js';
import type { Environment, PropertySource } from './environment.js';

/** The environment as Spring's JSON members, with (v2) or without its values' origins. */
export function environmentForJson(environment: Environment, withOrigins: boolean): unknown {
  const { name, profiles, label, version, state } = environment;
  const propertySources = environment.propertySources.map((source) =>
    propertySourceForJson(source, withOrigins),
  );
  return { name, profiles, label, version, state, propertySources };
}

/**
 * One property source as Spring's JSON members (`name`, `source`, then confbus's `decryptedKeys` when it has
 * any): with `properties`, a slice of its properties stands for `source` (a large source is written in steps).
 */
export function propertySourceForJson(
  source: PropertySource,
  withOrigins: boolean,
  properties: FlatProperties = source.source,
): { name: string; source: ReadonlyMap<string, unknown>; decryptedKeys?: readonly string[] } {
  return {
    name: source.name,
    source: withOrigins ? describedProperties(properties, source.origins, source.sourceOrigin) : properties,
    ...(source.decryptedKeys === undefined ? {} : { decryptedKeys: source.decryptedKeys }),
  };
}

/**
 * Properties as v2 JSON values: `{value, origin}` where an origin was recorded (`sourceOrigin` for every value
 * when given), the bare value otherwise.
 */
export function describedProperties(
  properties: FlatProperties,
  origins: Readonly<Record<string, string>> | undefined,
  sourceOrigin?: string,
): ReadonlyMap<string, unknown> {
  if (origins === undefined && sourceOrigin === undefined) return properties;
  const out = new Map<string, unknown>();
  for (const [key, value] of properties) {
    const origin = sourceOrigin ?? (origins && Object.hasOwn(origins, key) ? origins[key] : undefined);
    out.set(key, origin === undefined ? value : { value, origin });
  }
  return out;
}

/** `origins` without the keys a transform changed (their values are no longer the ones the file holds). */
export function originsWithout(
  origins: Readonly<Record<string, string>>,
  changed: ReadonlySet<string>,
): Readonly<Record<string, string>> {
  const kept: Record<string, string> = {};
  for (const key of Object.keys(origins)) if (!changed.has(key)) setOwnProperty(kept, key, origins[key]!);
  return kept;
}
