/** Resolved settings, read by relaxed name, and the error a bad one raises. */
import { ConfbusError } from '../errors/confbus-error.js';
import { coreErrors } from '../errors.js';
import { canonicalKey, uniformKey } from './relaxed-names.js';
import type { SettingSpec, SettingValue } from './setting-spec.js';

export type SettingSource = 'argument' | 'environment' | 'file' | 'default';

/** A bad setting: names the key and where it came from, never the value of a secret. */
export class SettingsError extends ConfbusError<'CONFBUS_BAD_SETTING'> {
  override readonly name = 'SettingsError';
  constructor(
    message: string,
    readonly key: string,
    readonly source: SettingSource | 'programmatic',
  ) {
    super(coreErrors.CONFBUS_BAD_SETTING, message);
  }
}

export interface ResolvedSetting {
  /** The declared key (`spring.cloud.config.server.git.search-paths`), or the key as written when undeclared. */
  readonly key: string;
  readonly value: SettingValue;
  readonly source: SettingSource | 'programmatic';
  /** The key as written, when it came from a file, an argument or an override. */
  readonly spelling?: string;
  /** A secret went into the value through a `${...}` placeholder (`uri: https://ci:${GIT_TOKEN}@host`). */
  readonly fromSecret?: boolean;
}

export class Settings {
  constructor(
    private readonly specs: ReadonlyMap<string, SettingSpec>,
    /** Keyed by `uniformKey`, so every relaxed spelling reads the same entry. */
    private readonly values: ReadonlyMap<string, ResolvedSetting>,
    /** Arguments that are not `--key=value`, e.g. the CLI's sub-command. */
    readonly positionals: readonly string[],
    /** Settings that were ignored and why (unsupported Spring keys, unknown environment variables). */
    readonly warnings: readonly string[] = [],
    /** The settings files read (absolute paths): a config server never serves them. */
    readonly files: readonly string[] = [],
  ) {}

  has(key: string): boolean {
    return this.values.has(uniformKey(key));
  }

  get(key: string): SettingValue | undefined {
    return this.values.get(uniformKey(key))?.value;
  }

  /** The key as it was written: map keys under a prefix keep their case (`overrides.myKey`). */
  spellingOf(key: string): string {
    return this.values.get(uniformKey(key))?.spelling ?? key;
  }

  sourceOf(key: string): SettingSource | 'programmatic' | undefined {
    return this.values.get(uniformKey(key))?.source;
  }

  string(key: string): string {
    const value = this.get(key);
    if (value === undefined) throw new SettingsError(`Setting '${key}' is required`, key, 'default');
    return Array.isArray(value) ? value.join(',') : String(value);
  }

  optionalString(key: string): string | undefined {
    const value = this.get(key);
    if (value === undefined || value === '') return undefined;
    return Array.isArray(value) ? value.join(',') : String(value);
  }

  number(key: string): number {
    const value = this.get(key);
    if (typeof value !== 'number')
      throw new SettingsError(`Setting '${key}' is not a number`, key, 'default');
    return value;
  }

  boolean(key: string): boolean {
    return this.get(key) === true;
  }

  list(key: string): string[] {
    const value = this.get(key);
    if (value === undefined || value === '') return [];
    return Array.isArray(value) ? [...value] : splitList(String(value));
  }

  /**
   * These settings with the entries under `from` moved under `to`, and what was set under `to` dropped (its
   * defaults kept): a composite
   * member's `composite[0].*` read by its backend's own reader. Values are typed by the spec at `to` (a map
   * entry arrives as text), and YAML list items (`search-paths[0]`) are gathered into one list.
   */
  rebased(from: string, to: string): Settings {
    const source = `${uniformKey(from)}.`;
    const target = `${uniformKey(to)}.`;
    const values = new Map<string, ResolvedSetting>();
    for (const [uniform, entry] of this.values)
      if (!uniform.startsWith(target) || entry.source === 'default') values.set(uniform, entry);
    const items = new Map<string, { entry: ResolvedSetting; values: string[] }>();
    for (const [uniform, entry] of this.values) {
      if (!uniform.startsWith(source)) continue;
      const rest = uniform.slice(source.length);
      const item = /^(.*)\[\d+\]$/.exec(rest);
      if (item) {
        const gathered = items.get(item[1]!) ?? { entry, values: [] };
        gathered.values.push(String(entry.value));
        items.set(item[1]!, gathered);
        continue;
      }
      values.set(target + rest, this.typed(target + rest, entry));
    }
    for (const [rest, { entry, values: list }] of items)
      values.set(target + rest, this.typed(target + rest, { ...entry, value: list }));
    return new Settings(this.specs, values, this.positionals, this.warnings, this.files);
  }

  /** An entry moved to `uniform`, its value converted to that key's declared type. */
  private typed(uniform: string, entry: ResolvedSetting): ResolvedSetting {
    const spec = this.specs.get(uniform);
    const key = spec?.key ?? uniform;
    const moved = { ...entry, key, spelling: entry.spelling ?? entry.key };
    if (spec === undefined || typeof entry.value !== 'string') return moved;
    const text = entry.value.trim();
    const bad = (kind: string) =>
      new SettingsError(`${moved.spelling} must be ${kind}, got '${text}'`, key, entry.source);
    switch (spec.type) {
      case 'integer':
      case 'number': {
        const number = Number(text);
        if (text === '' || !Number.isFinite(number) || (spec.type === 'integer' && !Number.isInteger(number)))
          throw bad(`a ${spec.type}`);
        return { ...moved, value: number };
      }
      case 'boolean':
        if (text !== 'true' && text !== 'false') throw bad('true or false');
        return { ...moved, value: text === 'true' };
      case 'list':
        return { ...moved, value: splitList(text) };
      default:
        return moved;
    }
  }

  /** Every resolved key, for the client's local property source. */
  entries(): Array<[string, SettingValue]> {
    return [...this.values.values()].map((entry) => [entry.key, entry.value]);
  }

  /** Keys below a map-valued prefix, e.g. `spring.cloud.config.server.git.repos.`. */
  keysUnder(prefix: string): string[] {
    const uniform = uniformKey(prefix);
    const lower = canonicalKey(prefix);
    return [...this.values]
      .filter(([key, entry]) => key.startsWith(uniform) || entry.key.startsWith(lower))
      .map(([, entry]) => entry.key);
  }

  /** A declared secret, or a value a secret went into through a placeholder: shown nowhere. */
  isSecret(key: string): boolean {
    const uniform = uniformKey(key);
    return this.specs.get(uniform)?.secret === true || this.values.get(uniform)?.fromSecret === true;
  }

  /** A declared setting or an entry of a declared map (`...repos.<name>.uri`), not a key kept as written. */
  isDeclared(key: string): boolean {
    const uniform = uniformKey(key);
    if (this.specs.has(uniform)) return true;
    for (const [prefix, spec] of this.specs) {
      if (spec.isPrefix && uniform.startsWith(`${prefix}.`)) return true;
    }
    return false;
  }
}

export function splitList(text: string): string[] {
  return text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
}
