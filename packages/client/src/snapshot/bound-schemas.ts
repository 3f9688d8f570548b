/**
 * The schemas the application has bound its configuration with (`bind(prefix, schema)`), remembered so a refresh
 * can check a new snapshot against them before applying it: a value the application's own schema refuses is
 * never swapped in, and the refresh says why (its ack reports `rejected` with that reason). Refreshable
 * components need no entry here: a refresh rebuilds them on the new snapshot before the swap, and a bind that
 * fails there fails the refresh the same way.
 */
import { messageOf } from '@confbus/core/internal';
import {
  type JsonSchema,
  type StandardJsonSchemaSource,
  schemaOfBindings,
} from '@confbus/contracts/published';
import type { ConfigSnapshot } from './config-snapshot.js';
import { type ConfigSchema, SnapshotView } from './config-view.js';

/**
 * Bindings remembered, at most: a schema made anew on every call (`bind('a', z.object(...))` in a request
 * handler) must not grow the list for ever. The oldest go first; the same (prefix, schema) counts once.
 */
export const MAX_BOUND_SCHEMAS = 256;

export interface BoundSchema {
  readonly prefix: string;
  readonly schema: ConfigSchema<unknown>;
}

export class BoundSchemas {
  readonly #bindings: BoundSchema[] = [];
  readonly #listeners: Array<() => void> = [];
  #contract: JsonSchema | undefined | null = null;

  /** Remembers a binding (once per prefix and schema object). */
  add(prefix: string, schema: ConfigSchema<unknown>): void {
    const known = this.#bindings.findIndex((b) => b.prefix === prefix && b.schema === schema);
    if (known >= 0) this.#bindings.splice(known, 1);
    this.#bindings.push({ prefix, schema });
    if (this.#bindings.length > MAX_BOUND_SCHEMAS) this.#bindings.shift();
    if (known < 0) {
      this.#contract = null;
      for (const listener of this.#listeners) listener();
    }
  }

  /** Told when a new binding is remembered (the bus member announces the new contract). */
  onAdded(listener: () => void): void {
    this.#listeners.push(listener);
  }

  /**
   * The contract the bindings make (`@confbus/contracts/published`: each schema at its prefix), published to the
   * config servers with this node's presence so their gate enforces it; undefined when no binding's schema can
   * say what it accepts as JSON Schema (Standard JSON Schema: zod 4, ArkType, Valibot's converter).
   */
  contract(): JsonSchema | undefined {
    if (this.#contract === null) {
      const convertible = this.#bindings.flatMap(({ prefix, schema }) =>
        hasJsonSchema(schema) ? [{ prefix, schema }] : [],
      );
      try {
        this.#contract = convertible.length === 0 ? undefined : schemaOfBindings(convertible);
      } catch {
        // A schema whose converter fails (a transform it cannot express): nothing is published for it.
        this.#contract = undefined;
      }
    }
    return this.#contract;
  }

  /** The bindings, oldest first: what a published contract is made of. */
  get bindings(): readonly BoundSchema[] {
    return this.#bindings;
  }

  /** Why `next` breaks a binding, each broken one in turn; undefined when every binding accepts it. */
  rejectionOf(next: ConfigSnapshot): string | undefined {
    const view = new SnapshotView(() => next);
    const reasons: string[] = [];
    for (const { prefix, schema } of this.#bindings) {
      try {
        view.bind(prefix, schema);
      } catch (error) {
        reasons.push(messageOf(error));
      }
    }
    return reasons.length === 0 ? undefined : [...new Set(reasons)].join('; ');
  }
}

function hasJsonSchema(
  schema: ConfigSchema<unknown>,
): schema is ConfigSchema<unknown> & StandardJsonSchemaSource {
  const standard = (schema as Partial<StandardJsonSchemaSource>)['~standard'];
  return typeof standard?.jsonSchema?.input === 'function';
}
