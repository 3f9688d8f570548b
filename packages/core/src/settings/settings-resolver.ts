/**
 * Resolves settings from Spring's sources, highest precedence first:
 * `--key=value` arguments, environment variables (relaxed names), a YAML settings file, defaults.
 * Pure: the caller reads the file and hands over its text, so this module does no I/O.
 */
import YAML from 'yaml';
import { flattenProperties } from '../codecs/flatten.js';
import { ConfbusError } from '../errors/confbus-error.js';
import { coreErrors } from '../errors.js';
import { canonicalKey, environmentNamesFor, looseKey } from './relaxed-names.js';
import type { SettingSpec, SettingValue } from './setting-spec.js';

export type SettingSource = 'argument' | 'environment' | 'file' | 'default';

export interface SettingsInput {
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly file?: { readonly path: string; readonly text: string };
  /** Programmatic values (the client's options object): between arguments and environment. */
  readonly overrides?: Readonly<Record<string, SettingValue | undefined>>;
}

export interface ResolveOptions {
  /** Keys not declared in the specs are errors (server) or kept as plain properties (client). */
  readonly unknownKeys: 'error' | 'keep';
}

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

interface RawEntry {
  readonly raw: unknown;
  readonly source: SettingSource | 'programmatic';
  /** The key as written, when it came from a file or an argument. */
  readonly spelling?: string;
}

export class Settings {
  constructor(
    private readonly specs: ReadonlyMap<string, SettingSpec>,
    private readonly values: ReadonlyMap<
      string,
      { value: SettingValue; source: SettingSource | 'programmatic'; spelling?: string }
    >,
    /** Arguments that are not `--key=value`, e.g. the CLI's sub-command. */
    readonly positionals: readonly string[],
  ) {}

  has(key: string): boolean {
    return this.values.has(canonicalKey(key));
  }

  get(key: string): SettingValue | undefined {
    return this.values.get(canonicalKey(key))?.value;
  }

  /** The key as it was written: map keys under a prefix keep their case (`overrides.myKey`). */
  spellingOf(key: string): string {
    return this.values.get(canonicalKey(key))?.spelling ?? key;
  }

  sourceOf(key: string): SettingSource | 'programmatic' | undefined {
    return this.values.get(canonicalKey(key))?.source;
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

  /** Every resolved key, for the client's local property source. */
  entries(): Array<[string, SettingValue]> {
    return [...this.values].map(([key, entry]) => [key, entry.value]);
  }

  /** Keys below a map-valued prefix, e.g. `spring.cloud.config.server.git.repos.`. */
  keysUnder(prefix: string): string[] {
    const p = canonicalKey(prefix);
    return [...this.values.keys()].filter((key) => key.startsWith(p));
  }

  isSecret(key: string): boolean {
    return this.specs.get(canonicalKey(key))?.secret === true;
  }
}

export function splitList(text: string): string[] {
  return text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

/** Parses `--key=value` arguments; `--flag` alone means `true`. Other arguments are positionals. */
export function parseArguments(args: readonly string[]): {
  pairs: Array<[string, string]>;
  positionals: string[];
} {
  const pairs: Array<[string, string]> = [];
  const positionals: string[] = [];
  for (const arg of args) {
    if (arg.startsWith('--') && arg.length > 2) {
      const eq = arg.indexOf('=');
      if (eq === -1) pairs.push([arg.slice(2), 'true']);
      else pairs.push([arg.slice(2, eq), arg.slice(eq + 1)]);
    } else {
      positionals.push(arg);
    }
  }
  return { pairs, positionals };
}

/** Flattens a YAML settings file into dotted keys; errors name the file and line. */
export function parseSettingsFile(path: string, text: string): Record<string, unknown> {
  const doc = YAML.parseDocument(text, { version: '1.1', uniqueKeys: true });
  if (doc.errors.length > 0) {
    const first = doc.errors[0];
    const line = first?.linePos?.[0]?.line;
    throw new SettingsError(
      `Settings file ${path}${line ? ` line ${line}` : ''} is not valid YAML: ${first?.message.split('\n')[0]}`,
      path,
      'file',
    );
  }
  const data: unknown = doc.toJS({ maxAliasCount: 100 });
  if (data === null || data === undefined) return {};
  if (typeof data !== 'object' || Array.isArray(data)) {
    throw new SettingsError(`Settings file ${path} must hold a map of settings`, path, 'file');
  }
  return flattenProperties(data);
}

export function resolveSettings(
  specList: readonly SettingSpec[],
  input: SettingsInput,
  options: ResolveOptions,
): Settings {
  const specs = new Map(specList.map((spec) => [canonicalKey(spec.key), spec]));
  const prefixes = specList.filter((spec) => spec.isPrefix).map((spec) => canonicalKey(spec.key));
  const aliases = new Map(
    specList.flatMap((spec) =>
      (spec.aliases ?? []).map((alias) => [canonicalKey(alias), canonicalKey(spec.key)]),
    ),
  );
  const keyOf = (key: string): string => aliases.get(canonicalKey(key)) ?? canonicalKey(key);
  const raw = new Map<string, RawEntry>();

  // Lowest precedence first; later writes win.
  for (const spec of specList) {
    if (spec.default !== undefined) raw.set(canonicalKey(spec.key), { raw: spec.default, source: 'default' });
  }
  if (input.file) {
    const flat = parseSettingsFile(input.file.path, input.file.text);
    for (const [key, value] of Object.entries(groupLists(flat, specs))) {
      raw.set(keyOf(key), { raw: value, source: 'file', spelling: key });
    }
  }
  const env = input.env ?? {};
  for (const spec of specList) {
    if (spec.isPrefix) continue;
    for (const name of environmentNamesFor(spec.key)) {
      const value = env[name];
      if (value !== undefined) {
        raw.set(canonicalKey(spec.key), { raw: value, source: 'environment' });
        break;
      }
    }
  }
  for (const [key, value] of Object.entries(input.overrides ?? {})) {
    if (value !== undefined) raw.set(keyOf(key), { raw: value, source: 'programmatic', spelling: key });
  }
  const { pairs, positionals } = parseArguments(input.args ?? []);
  for (const [key, value] of pairs) raw.set(keyOf(key), { raw: value, source: 'argument', spelling: key });

  const values = new Map<
    string,
    { value: SettingValue; source: SettingSource | 'programmatic'; spelling?: string }
  >();
  for (const [key, entry] of raw) {
    const spec = specs.get(key);
    if (!spec) {
      const underPrefix = prefixes.some((prefix) => key.startsWith(`${prefix}.`));
      if (!underPrefix && options.unknownKeys === 'error') {
        throw new SettingsError(unknownKeyMessage(key, entry.source, specList), key, entry.source);
      }
      values.set(key, { value: coerceLoose(entry.raw), source: entry.source, spelling: entry.spelling });
      continue;
    }
    values.set(key, { value: coerce(spec, entry), source: entry.source });
  }
  return new Settings(specs, values, positionals);
}

/** YAML lists under list-typed keys arrive flattened as `key[0]`, `key[1]`: fold them back. */
function groupLists(
  flat: Record<string, unknown>,
  specs: ReadonlyMap<string, SettingSpec>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(flat)) {
    const match = /^(.*)\[(\d+)\]$/.exec(key);
    const base = match?.[1];
    if (base !== undefined && specs.get(canonicalKey(base))?.type === 'list') {
      const list = (out[base] as unknown[] | undefined) ?? [];
      list[Number(match?.[2])] = value;
      out[base] = list;
    } else {
      out[key] = value;
    }
  }
  return out;
}

function coerceLoose(raw: unknown): SettingValue {
  if (typeof raw === 'string' || typeof raw === 'number' || typeof raw === 'boolean') return raw;
  if (Array.isArray(raw)) return raw.map(String);
  return String(raw);
}

function describe(spec: SettingSpec, entry: RawEntry): string {
  const shown = spec.secret ? '(hidden)' : `'${String(entry.raw)}'`;
  return `Setting '${spec.key}' from ${entry.source}: ${shown}`;
}

function coerce(spec: SettingSpec, entry: RawEntry): SettingValue {
  const { raw } = entry;
  switch (spec.type) {
    case 'string':
      if (typeof raw === 'object' && raw !== null) {
        throw new SettingsError(`${describe(spec, entry)} must be a single value`, spec.key, entry.source);
      }
      return String(raw);
    case 'boolean': {
      if (typeof raw === 'boolean') return raw;
      const text = String(raw).trim().toLowerCase();
      if (['true', 'yes', 'on', '1'].includes(text)) return true;
      if (['false', 'no', 'off', '0'].includes(text)) return false;
      throw new SettingsError(`${describe(spec, entry)} must be true or false`, spec.key, entry.source);
    }
    case 'integer':
    case 'number': {
      const text = String(raw).trim();
      const value = text === '' ? Number.NaN : Number(text);
      if (!Number.isFinite(value) || (spec.type === 'integer' && !Number.isInteger(value))) {
        const kind = spec.type === 'integer' ? 'a whole number' : 'a number';
        throw new SettingsError(`${describe(spec, entry)} must be ${kind}`, spec.key, entry.source);
      }
      return value;
    }
    case 'list':
      if (Array.isArray(raw)) return raw.map((item) => String(item).trim()).filter((item) => item !== '');
      return splitList(String(raw));
  }
}

function unknownKeyMessage(key: string, source: string, specs: readonly SettingSpec[]): string {
  const loose = looseKey(key);
  const near = specs.find((spec) => looseKey(spec.key) === loose) ?? closest(key, specs);
  const hint = near ? ` Did you mean '${near.key}'?` : '';
  return `Unknown setting '${key}' (from ${source}).${hint} Run 'confbus --help' for the list of settings.`;
}

function closest(key: string, specs: readonly SettingSpec[]): SettingSpec | undefined {
  let best: SettingSpec | undefined;
  let bestDistance = Math.max(3, Math.floor(key.length / 6));
  for (const spec of specs) {
    const d = editDistance(key, spec.key);
    if (d <= bestDistance) {
      best = spec;
      bestDistance = d;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0] ?? 0;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j] ?? 0;
      row[j] = Math.min(current + 1, (row[j - 1] ?? 0) + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = current;
    }
  }
  return row[b.length] ?? 0;
}

/**
 * Where the settings file is: `--spring.config.location=FILE`, else `SPRING_CONFIG_LOCATION`, else undefined
 * (callers then try `application.yml` in the working directory). Spring's `optional:` and `file:` prefixes
 * are accepted and removed.
 */
export function settingsFileLocation(
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): SettingsFileLocation | undefined {
  const fromArgs = parseArguments(args).pairs.find(
    ([key]) => canonicalKey(key) === 'spring.config.location',
  )?.[1];
  return parseSettingsFileLocation(fromArgs ?? env.SPRING_CONFIG_LOCATION);
}

export interface SettingsFileLocation {
  readonly path: string;
  /** `optional:FILE`: a missing file is not an error. */
  readonly optional: boolean;
}

/** A `spring.config.location` value: Spring's `optional:` and `file:` prefixes removed; blank is "not given". */
export function parseSettingsFileLocation(raw: string | undefined): SettingsFileLocation | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  let path = raw.trim();
  const optional = path.startsWith('optional:');
  if (optional) path = path.slice('optional:'.length);
  if (path.startsWith('file:')) path = path.slice('file:'.length);
  return { path, optional };
}
