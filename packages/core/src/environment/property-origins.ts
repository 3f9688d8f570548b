/**
 * Origin tracking for Spring's v2 media type (`application/vnd.spring-cloud.config-server.v2+json`): each value
 * written as `{"value": …, "origin": "line:column"}` where the file recorded where it was written, as Spring's
 * PassthruEnvironmentRepository does. Values without a recorded origin stay bare: a decrypted `{cipher}` value
 * (Spring serves its clear text without origin), `invalid.<key>`, and the `overrides` source.
 * Origins are remembered per parsed properties object (a WeakMap), so cached documents keep theirs.
 */
import type { FlatProperties } from '../codecs/flatten.js';
import type { Environment, PropertySource } from './environment.js';

const ORIGINS = new WeakMap<FlatProperties, Readonly<Record<string, string>>>();

export function rememberOrigins(properties: FlatProperties, origins: Readonly<Record<string, string>>): void {
  ORIGINS.set(properties, origins);
}

/**
 * The environment as v2 JSON values. `stored` is the environment before server-side decryption: a value keeps
 * its origin only while it is still the value the file holds.
 */
export function withOrigins(served: Environment, stored: Environment): unknown {
  const storedByName = new Map(stored.propertySources.map((source) => [source.name, source.source]));
  return {
    ...served,
    propertySources: served.propertySources.map((source) => ({
      name: source.name,
      source: describeValues(source, storedByName.get(source.name)),
    })),
  };
}

function describeValues(source: PropertySource, stored: FlatProperties | undefined): Record<string, unknown> {
  const origins = stored === undefined ? undefined : ORIGINS.get(stored);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(source.source)) {
    const origin = origins !== undefined && Object.hasOwn(origins, key) ? origins[key] : undefined;
    const unchanged = stored !== undefined && Object.hasOwn(stored, key) && Object.is(stored[key], value);
    Object.defineProperty(out, key, {
      value: origin !== undefined && unchanged ? { value, origin } : value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}
