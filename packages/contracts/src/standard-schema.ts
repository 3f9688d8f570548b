/**
 * Contracts published by running Node services (the transport to the server comes later): the schemas a
 * client binds its configuration with (`bind(prefix, schema)`) become one JSON Schema for the application, each
 * placed at its prefix. Any schema that implements Standard JSON Schema (`~standard.jsonSchema`, which zod 4,
 * ArkType and Valibot's converter provide) converts; its *input* side is taken, since the configuration is the
 * input the schema parses (defaults not yet applied, strings not yet transformed).
 */
import type { Contract, JsonSchema } from './contract.js';

/** The part of the Standard JSON Schema interface used here (standardschema.dev, "JSON Schema"). */
export interface StandardJsonSchemaSource {
  readonly '~standard': {
    readonly jsonSchema?: {
      readonly input: (options: { readonly target: string }) => Record<string, unknown>;
    };
  };
}

/** What a service sends: who it is and the contract its bindings make. */
export interface PublishedContract {
  readonly application: string;
  /** The instance that published it (its bus id, or host:port), shown in violations. */
  readonly instance: string;
  /** The service's own version, when it knows one: several versions may run at once, and all must hold. */
  readonly version?: string;
  readonly schema: JsonSchema;
}

export interface BoundSchema {
  /** The bound prefix (`app.pool`, '' for the whole configuration). */
  readonly prefix: string;
  readonly schema: StandardJsonSchemaSource;
}

/** The JSON Schema (2020-12) of a Standard JSON Schema; throws a TypeError for a schema that has none. */
export function jsonSchemaOf(schema: StandardJsonSchemaSource): JsonSchema {
  const converter = schema['~standard'].jsonSchema;
  if (converter === undefined)
    throw new TypeError('the schema does not implement Standard JSON Schema (~standard.jsonSchema)');
  return converter.input({ target: 'draft-2020-12' });
}

/** One schema for the whole configuration: each binding's schema nested at its prefix, all of them required. */
export function schemaOfBindings(bindings: readonly BoundSchema[]): JsonSchema {
  const parts = bindings.map(({ prefix, schema }) => atPrefix(prefix, withoutDialect(jsonSchemaOf(schema))));
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    ...(parts.length === 1 ? parts[0] : { allOf: parts }),
  };
}

/** The contract a service publishes for its bindings. */
export function publishedContract(
  application: string,
  instance: string,
  bindings: readonly BoundSchema[],
  version?: string,
): PublishedContract {
  return { application, instance, ...(version ? { version } : {}), schema: schemaOfBindings(bindings) };
}

/** A published contract as the contracts checked with the repository's. */
export function contractOfPublished(published: PublishedContract): Contract {
  const version = published.version ? ` ${published.version}` : '';
  return {
    application: published.application,
    name: `published by ${published.instance}${version}`,
    schema: published.schema,
  };
}

/**
 * `{"a": {"b": schema}}` for prefix `a.b`. bind() hands the schema an empty object when nothing is set under the
 * prefix, so the prefix is required only when the schema requires something in it.
 */
function atPrefix(prefix: string, schema: JsonSchema): JsonSchema {
  const segments = prefix.split('.').filter((segment) => segment !== '');
  const requiresSome = Array.isArray(schema.required) && schema.required.length > 0;
  let nested = schema;
  for (const segment of segments.reverse())
    nested = {
      type: 'object',
      properties: { [segment]: nested },
      ...(requiresSome ? { required: [segment] } : {}),
    };
  return nested;
}

/** A nested `$schema` is not allowed below the root in 2020-12 without `$id`: the root declares the dialect. */
function withoutDialect(schema: JsonSchema): JsonSchema {
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}
