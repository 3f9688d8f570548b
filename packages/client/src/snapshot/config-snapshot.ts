/**
 * One immutable view of the whole configuration: the layers in precedence order (config client
 * metadata, remote sources, local settings; see remote-placement.ts) plus where they came from. A refresh builds a new
 * snapshot and swaps it in; nothing here ever changes after construction.
 */
import { resolveValuePlaceholders, type PropertyValue } from '@confbus/core';

export type ConfigSourceKind = 'server' | 'backup' | 'local';

export interface PropertyLayer {
  readonly name: string;
  get(key: string): PropertyValue | undefined;
  keys(): Iterable<string>;
  /** Keys whose values were `{cipher}` text, decrypted by the server or this client: secrets whatever their names. */
  readonly decryptedKeys?: ReadonlySet<string>;
}

export interface SnapshotMeta {
  readonly source: ConfigSourceKind;
  readonly name: string;
  readonly profiles: readonly string[];
  readonly label: string | null;
  readonly version: string | null;
  readonly state: string | null;
}

/** A layer over `source`, which is not copied: property sources are never changed once made. */
export function mapLayer(
  name: string,
  source: ReadonlyMap<string, PropertyValue>,
  decryptedKeys?: Iterable<string>,
): PropertyLayer {
  const layer = { name, get: (key: string) => source.get(key), keys: () => source.keys() };
  return decryptedKeys === undefined ? layer : { ...layer, decryptedKeys: new Set(decryptedKeys) };
}

export class ConfigSnapshot {
  /** effective(), worked out once: the snapshot never changes, and each refresh diffs against the previous one. */
  #effective: ReadonlyMap<string, PropertyValue> | undefined;

  constructor(
    readonly layers: readonly PropertyLayer[],
    readonly meta: SnapshotMeta,
  ) {}

  /** The raw value and the layer it came from, placeholders unresolved. */
  rawEntry(key: string): { value: PropertyValue; layer: string } | undefined {
    for (const layer of this.layers) {
      const value = layer.get(key);
      if (value !== undefined) return { value, layer: layer.name };
    }
    return undefined;
  }

  /**
   * The value with placeholders resolved across all layers. `onRead` hears every key consulted,
   * including placeholder targets, so a refreshable also depends on what its values refer to.
   */
  resolve(key: string, onRead?: (key: string) => void): PropertyValue | undefined {
    onRead?.(key);
    const value = this.#rawValue(key);
    // Most values hold no placeholder: no lookup closure, no options, no entry object for them (a refresh
    // rebinds every changed key).
    if (typeof value !== 'string' || !value.includes('${')) return value;
    // A placeholder bomb in the configuration fails fast with an error naming the key and its source.
    const lookup = (ref: string) => {
      onRead?.(ref);
      return this.#rawValue(ref);
    };
    const source = this.rawEntry(key)?.layer;
    return resolveValuePlaceholders(key, value, lookup, { source, circular: 'keep-innermost' });
  }

  /** rawEntry()'s value alone, without allocating the entry. */
  #rawValue(key: string): PropertyValue | undefined {
    for (const layer of this.layers) {
      const value = layer.get(key);
      if (value !== undefined) return value;
    }
    return undefined;
  }

  /** Every enumerable key with its winning raw value: what a refresh diffs. */
  effective(): ReadonlyMap<string, PropertyValue> {
    if (this.#effective) return this.#effective;
    const out = new Map<string, PropertyValue>();
    for (let i = this.layers.length - 1; i >= 0; i--) {
      const layer = this.layers[i]!;
      for (const key of layer.keys()) {
        const value = layer.get(key);
        if (value !== undefined) out.set(key, value);
      }
    }
    this.#effective = out;
    return out;
  }

  /**
   * Keys under `prefix` for binding. As in Boot's binder, a list comes whole from the highest
   * source that has any element of it: a shorter list there is not padded from lower sources.
   */
  keysUnder(prefix: string): string[] {
    const keys = new Set<string>();
    const listOwner = new Map<string, PropertyLayer>();
    for (const layer of this.layers) {
      for (const key of layer.keys()) {
        if (!isUnderPrefix(key, prefix)) continue;
        const bracket = key.indexOf('[', prefix.length);
        if (bracket !== -1) {
          const list = key.slice(0, bracket);
          const owner = listOwner.get(list);
          if (owner === undefined) listOwner.set(list, layer);
          else if (owner !== layer) continue;
        }
        keys.add(key);
      }
    }
    return [...keys].sort();
  }
}

/**
 * `key` lies under `prefix` (`prefix.x` or `prefix[0]`); '' holds every key. Compares in place: a refresh
 * checks every changed key against every prefix, and building `${prefix}.` each time was garbage.
 */
export function isUnderPrefix(key: string, prefix: string): boolean {
  if (prefix === '') return true;
  if (key.length <= prefix.length || !key.startsWith(prefix)) return false;
  const next = key.charCodeAt(prefix.length);
  return next === 46 /* . */ || next === 91; /* [ */
}

/** Keys added, removed or changed between two snapshots, sorted. */
export function changedKeys(before: ConfigSnapshot, after: ConfigSnapshot): string[] {
  const a = before.effective();
  const b = after.effective();
  const changed: string[] = [];
  // Effective values are never undefined, so a key `a` lacks compares unequal too (one lookup, no entry pairs).
  b.forEach((value, key) => {
    if (a.get(key) !== value) changed.push(key);
  });
  for (const key of a.keys()) if (!b.has(key)) changed.push(key);
  return changed.sort();
}
