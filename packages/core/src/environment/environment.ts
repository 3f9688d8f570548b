/**
 * The Spring Cloud Config environment as served by `GET /{application}/{profile}[/{label}]`.
 * Field order matches Jackson 2's (name, profiles, label, version, state, propertySources).
 */
import type { FlatProperties } from '../codecs/flatten.js';

export interface PropertySource {
  name: string;
  source: FlatProperties;
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
