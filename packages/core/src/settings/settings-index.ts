/** What a key, however spelled, names: a declared setting, an item of a list setting, a map entry, or neither. */
import { flatKey, splitIndex, uniformKey } from './relaxed-names.js';
import type { SettingSpec } from './setting-spec.js';
import type { UnsupportedSetting } from './unsupported-setting.js';

export type KeyTarget =
  | { readonly kind: 'setting'; readonly spec: SettingSpec }
  | { readonly kind: 'list-item'; readonly spec: SettingSpec; readonly index: number }
  | { readonly kind: 'map-entry' }
  | { readonly kind: 'unsupported'; readonly entry: UnsupportedSetting }
  | { readonly kind: 'unknown' };

export class SettingsIndex {
  /** Declared settings by `uniformKey`, aliases included. */
  readonly byUniformKey: ReadonlyMap<string, SettingSpec>;
  /** Declared non-map settings by `flatKey`, for environment variable names. */
  readonly byFlatKey: ReadonlyMap<string, SettingSpec>;
  private readonly mapPrefixes: readonly string[];
  /** Prefixes whose entries are indexed (`composite[0].type`): a list of objects. */
  private readonly listPrefixes: readonly string[];
  /** The declared keys of map settings (`spring.cloud.config.server.git.repos`). */
  readonly mapPrefixKeys: readonly string[];

  constructor(
    specs: readonly SettingSpec[],
    private readonly unsupported: readonly UnsupportedSetting[],
  ) {
    this.byUniformKey = new Map(
      specs.flatMap((spec) => [spec.key, ...(spec.aliases ?? [])].map((key) => [uniformKey(key), spec])),
    );
    this.byFlatKey = new Map(specs.filter((spec) => !spec.isPrefix).map((spec) => [flatKey(spec.key), spec]));
    this.mapPrefixKeys = specs.filter((spec) => spec.isPrefix).map((spec) => spec.key);
    this.mapPrefixes = this.mapPrefixKeys.map((key) => uniformKey(key));
    this.listPrefixes = specs
      .filter((spec) => spec.isPrefix && spec.indexed)
      .map((spec) => uniformKey(spec.key));
  }

  uniformOf(key: string): string {
    return uniformKey(key);
  }

  specOf(uniform: string): SettingSpec | undefined {
    const spec = this.byUniformKey.get(uniform);
    return spec?.isPrefix ? undefined : spec;
  }

  targetOf(key: string): KeyTarget {
    const uniform = uniformKey(key);
    const spec = this.specOf(uniform);
    if (spec) return { kind: 'setting', spec };
    const indexed = splitIndex(key);
    const listSpec = indexed && this.specOf(uniformKey(indexed.base));
    if (indexed && listSpec?.type === 'list')
      return { kind: 'list-item', spec: listSpec, index: indexed.index };
    const entry = uniformKey(this.dottedMapEntryKey(key));
    if (this.mapPrefixes.some((prefix) => entry.startsWith(`${prefix}.`))) return { kind: 'map-entry' };
    // A list of objects (`composite[0].type`): its entries are kept as written, as a map's are.
    if (this.listPrefixes.some((prefix) => new RegExp(`^${escapeRegExp(prefix)}\\[\\d+\\]\\.`).test(entry)))
      return { kind: 'map-entry' };
    const unsupported = this.unsupported.find((candidate) => {
      const base = uniformKey(candidate.key);
      return uniform === base || (candidate.isPrefix === true && uniform.startsWith(`${base}.`));
    });
    return unsupported ? { kind: 'unsupported', entry: unsupported } : { kind: 'unknown' };
  }

  /**
   * A map entry's key with its map key dotted: Spring Boot binds `repos[test1].uri` (the map key in brackets, which
   * may hold dots: `overrides[foo.bar]`) as it binds `repos.test1.uri`, so both spellings name one entry. Any
   * other key is returned as it is; a numeric index (`[0]`) is a list's, never a map key.
   */
  dottedMapEntryKey(key: string): string {
    const open = key.indexOf('[');
    const close = key.indexOf(']', open);
    if (open < 0 || close < 0) return key;
    const mapKey = key.slice(open + 1, close);
    if (/^\d*$/.test(mapKey) || !this.mapPrefixes.includes(uniformKey(key.slice(0, open)))) return key;
    return `${key.slice(0, open)}.${mapKey}${key.slice(close + 1)}`;
  }

  /** The same, for an environment variable name (`SPRING_CLOUD_CONFIG_SERVER_GIT_SEARCHPATHS_0`). */
  targetOfEnvironmentName(flat: string, index: number | undefined): KeyTarget {
    const spec = this.byFlatKey.get(flat);
    if (spec && index === undefined) return { kind: 'setting', spec };
    if (spec?.type === 'list' && index !== undefined) return { kind: 'list-item', spec, index };
    if (this.mapPrefixes.some((prefix) => flat.startsWith(flatKey(prefix)))) return { kind: 'map-entry' };
    const entry = this.unsupported.find((candidate) => {
      const base = flatKey(candidate.key);
      return flat === base || (candidate.isPrefix === true && flat.startsWith(base));
    });
    return entry ? { kind: 'unsupported', entry } : { kind: 'unknown' };
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
