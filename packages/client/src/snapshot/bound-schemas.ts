/**
 * The schemas the application has bound its configuration with (`bind(prefix, schema)`), remembered so a refresh
 * can check a new snapshot against them before applying it: a value the application's own schema refuses is
 * never swapped in, and the refresh says why (its ack reports `rejected` with that reason). Refreshable
 * components need no entry here: a refresh rebuilds them on the new snapshot before the swap, and a bind that
 * fails there fails the refresh the same way.
 */
import { messageOf } from '@confbus/core/internal';
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

  /** Remembers a binding (once per prefix and schema object). */
  add(prefix: string, schema: ConfigSchema<unknown>): void {
    const known = this.#bindings.findIndex((b) => b.prefix === prefix && b.schema === schema);
    if (known >= 0) this.#bindings.splice(known, 1);
    this.#bindings.push({ prefix, schema });
    if (this.#bindings.length > MAX_BOUND_SCHEMAS) this.#bindings.shift();
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
