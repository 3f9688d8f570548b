/**
 * Origin tracking for Spring's v2 media type (`application/vnd.spring-cloud.config-server.v2+json`): each value
 * written as `{"value": …, "origin": "line:column"}` where the file recorded where it was written, as Spring's
 * PassthruEnvironmentRepository does. Values without a recorded origin stay bare: a decrypted `{cipher}` value
 * (Spring serves its clear text without origin) and `invalid.<key>`. A source the server makes itself can carry
 * one origin for all its values (the `overrides` source: "Config server overrides", as Spring's
 * EnvironmentEncryptorEnvironmentRepository describes them). Origins are remembered per properties object (a
 * WeakMap), so cached documents keep theirs.
 */
import type { FlatProperties } from '../codecs/flatten.js';
import type { Environment, PropertySource } from './environment.js';

const ORIGINS = new WeakMap<FlatProperties, Readonly<Record<string, string>>>();
/** Sources whose every value has one origin, whatever the stored environment holds. */
const SOURCE_ORIGINS = new WeakMap<FlatProperties, string>();

export function rememberOrigins(properties: FlatProperties, origins: Readonly<Record<string, string>>): void {
  ORIGINS.set(properties, origins);
}

/** Every value of `properties` (a source the server adds itself) has `origin` in the v2 media type. */
export function rememberSourceOrigin(properties: FlatProperties, origin: string): void {
  SOURCE_ORIGINS.set(properties, origin);
}

/**
 * The environment as v2 JSON values. `stored` is the environment before server-side decryption: a value keeps
 * its origin only while it is still the value the file holds.
 */
export function withOrigins(served: Environment, stored: Environment): unknown {
  const storedByName = storedSourcesByName(stored);
  return {
    ...served,
    propertySources: served.propertySources.map((source) =>
      sourceWithOrigins(source, storedByName.get(source.name)),
    ),
  };
}

/** The stored environment's sources by name, for sourceWithOrigins. */
export function storedSourcesByName(stored: Environment): Map<string, FlatProperties> {
  return new Map(stored.propertySources.map((source) => [source.name, source.source]));
}

/**
 * One property source as v2 JSON values (see withOrigins); `stored` is the same source before decryption, `whole`
 * the served source's properties when `source` holds a part of them.
 */
export function sourceWithOrigins(
  source: PropertySource,
  stored: FlatProperties | undefined,
  whole: FlatProperties = source.source,
): { name: string; source: Record<string, unknown>; decryptedKeys?: readonly string[] } {
  const origins = stored === undefined ? undefined : ORIGINS.get(stored);
  const sourceOrigin = SOURCE_ORIGINS.get(whole);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(source.source)) {
    const origin = origins !== undefined && Object.hasOwn(origins, key) ? origins[key] : undefined;
    const unchanged = stored !== undefined && Object.hasOwn(stored, key) && Object.is(stored[key], value);
    const described =
      sourceOrigin !== undefined
        ? { value, origin: sourceOrigin }
        : origin !== undefined && unchanged
          ? { value, origin }
          : value;
    // A plain assignment is several times cheaper than defining the property; `__proto__` must be defined.
    if (key === '__proto__')
      Object.defineProperty(out, key, {
        value: described,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    else out[key] = described;
  }
  return { name: source.name, source: out, ...decryptedKeysOf(source) };
}

/** The source's `decryptedKeys` member, when it has one (written after `source`, as in the plain JSON). */
export function decryptedKeysOf(source: PropertySource): { decryptedKeys?: readonly string[] } {
  return source.decryptedKeys === undefined ? {} : { decryptedKeys: source.decryptedKeys };
}
