/**
 * The Spring Cloud Config environment as served by `GET /{application}/{profile}[/{label}]`.
 * Field order matches Jackson 2's (name, profiles, label, version, state, propertySources).
 */
import type { FlatProperties } from '../codecs/flatten.js';

export interface PropertySource {
  name: string;
  source: FlatProperties;
  /**
   * Where each value was written in its file (`line:column`, as Boot's origin tracking records it), for Spring's
   * v2 media type; a value without an entry is served bare. Data on the source, so a copy carries it.
   */
  origins?: Readonly<Record<string, string>>;
  /**
   * One origin for every value, winning over `origins`: a source the server makes itself (`overrides`: "Config
   * server overrides", as Spring's EnvironmentEncryptorEnvironmentRepository describes them).
   */
  sourceOrigin?: string;
  /**
   * confbus's addition to Spring's JSON: the keys whose values the server decrypted from `{cipher}` text, so a
   * client treats them as secrets whatever their names (Spring clients ignore the member). Absent when none.
   */
  decryptedKeys?: readonly string[];
}

export interface Environment {
  name: string;
  profiles: string[];
  label: string | null;
  version: string | null;
  state: string | null;
  /** Highest precedence first. */
  propertySources: PropertySource[];
}
