/**
 * What a contract is and what breaking one reports. A contract is a JSON Schema (2020-12) for one application's
 * effective configuration as a nested object: `server.port` is `{"server": {"port": …}}` and `a.b[0]` is
 * `{"a": {"b": [...]}}`, the shape a client's bind() builds and JSON Schema tools (zod, editors, Spring's own
 * metadata groups) describe. Violations are reported back in Spring's flat keys with the file and line the value
 * came from (effective-configuration.ts), so nothing of the nesting shows to whoever fixes the file.
 */

/** A JSON Schema object (2020-12). Kept as plain JSON: contracts travel between processes and files. */
export type JsonSchema = { readonly [keyword: string]: unknown };

/** The application name whose contract applies to every application (as `application.yml` does). */
export const EVERY_APPLICATION = 'application';

/**
 * An annotation on a schema node saying in words what a value must be (`a duration such as 30s`): a violation
 * of the node reads "must be <that>" instead of the failed rule's wording (an unreadable pattern, say).
 */
export const EXPECTED = 'x-expected';

export interface Contract {
  /** The application it guards (`spring.application.name`), or EVERY_APPLICATION. */
  readonly application: string;
  /**
   * Where it came from, shown with each violation: a repository path (`.confbus/contracts/foo.schema.json`), or
   * `published by <instance>` for a schema a running service sent.
   */
  readonly name: string;
  readonly schema: JsonSchema;
}

/** Where a value was written: the property source (file) and the position its parser recorded. */
export interface ValueOrigin {
  /** The property source's name (`<uri>/<path>` or `<uri>/<path> (document #N)`). */
  readonly source: string;
  readonly line?: number;
  readonly column?: number;
}

export interface Violation {
  readonly application: string;
  /** The profiles of the environment checked (`default` when none). */
  readonly profiles: readonly string[];
  /** The Spring key at fault (`spring.datasource.url`, `app.hosts[2]`); '' for the configuration as a whole. */
  readonly key: string;
  /** The JSON Schema keyword that failed (`type`, `required`, `minimum`, `additionalProperties`, …). */
  readonly rule: string;
  /** What is wrong, without the value (values may be secrets). */
  readonly message: string;
  /** The contract broken (Contract.name). */
  readonly contract: string;
  /** Where the offending value was written; absent for a key that is missing altogether. */
  readonly origin?: ValueOrigin;
}
