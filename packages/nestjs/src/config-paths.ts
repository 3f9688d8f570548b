/**
 * Dotted paths into typed configuration: the `Path`/`PathValue` types behind `get(path, { infer: true })`, and the
 * lookup of a path (`db.hosts[0].name`) in a bound or validated object.
 */

type Leaf =
  string | number | bigint | boolean | symbol | null | undefined | Date | RegExp | readonly unknown[];

/** Every dotted path of `T` (`'db'`, `'db.host'`), ten levels deep at most (deeper types stop there). */
export type Path<T, Depth extends unknown[] = []> = Depth['length'] extends 10
  ? never
  : T extends Leaf
    ? never
    : {
        [K in keyof T & string]: NonNullable<T[K]> extends Leaf
          ? K
          : K | `${K}.${Path<NonNullable<T[K]>, [...Depth, unknown]>}`;
      }[keyof T & string];

/** The type at `P` in `T`. */
export type PathValue<T, P extends string> = P extends `${infer K}.${infer Rest}`
  ? K extends keyof T
    ? PathValue<NonNullable<T[K]>, Rest> | (undefined extends T[K] ? undefined : never)
    : never
  : P extends keyof T
    ? T[P]
    : never;

/** The value at `path` in `value`, following `.key` and `[index]` steps; undefined where the path leads nowhere. */
export function valueAtPath(value: unknown, path: string): unknown {
  let node = value;
  for (const step of pathSteps(path)) {
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, step)) return undefined;
    node = (node as Record<string, unknown>)[step];
  }
  return node;
}

function pathSteps(path: string): string[] {
  return path.split(/[.[\]]/).filter((step) => step !== '');
}

/** The namespace a path starts with (`db` of `db.host`) and the rest of it (`host`, or '' for the namespace). */
export function splitNamespace(path: string): { namespace: string; rest: string } {
  const end = path.search(/[.[]/);
  if (end === -1) return { namespace: path, rest: '' };
  return { namespace: path.slice(0, end), rest: path.slice(end).replace(/^\./, '') };
}
