/**
 * Resolves settings from Spring's sources, highest precedence first:
 * `--key=value` arguments, programmatic overrides, environment variables, a settings file, defaults.
 * Every source binds relaxed names (see relaxed-names.ts). Pure: the caller reads the file and hands over
 * its text, so this module does no I/O.
 */
import { canonicalKey } from './relaxed-names.js';
import type { SettingSpec, SettingValue } from './setting-spec.js';
import { type ResolvedSetting, type SettingSource, Settings, SettingsError } from './settings.js';
import { type BoundEntry, coerce, coerceLoose } from './setting-coercion.js';
import { parseSettingsFile } from './settings-file.js';
import { type KeyTarget, SettingsIndex } from './settings-index.js';
import { unknownSettingMessage } from './setting-suggestions.js';
import { type UnsupportedSetting, unsupportedSettingMessage } from './unsupported-setting.js';
import { environmentPairs } from './environment-binding.js';
import { SettingPlaceholders } from './setting-placeholders.js';
import { PlaceholderCycleError } from '../environment/placeholder-resolver.js';
import { PlaceholderLimitError } from '../environment/placeholder-limits.js';

export { Settings, SettingsError, splitList, type SettingSource } from './settings.js';
export { parseSettingsFile } from './settings-file.js';

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
  /** Spring keys this role knows of but does not implement: they stop start-up or warn, never "unknown". */
  readonly unsupported?: readonly UnsupportedSetting[];
}

type Source = SettingSource | 'programmatic';

interface RawEntry extends BoundEntry {
  readonly key: string;
  readonly source: Source;
  readonly spelling?: string;
  /** A setting confbus declares (or a map entry of one); kept client properties are resolved on each read. */
  readonly declared?: boolean;
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

export function resolveSettings(
  specList: readonly SettingSpec[],
  input: SettingsInput,
  options: ResolveOptions,
): Settings {
  const index = new SettingsIndex(specList, options.unsupported ?? []);
  const raw = new Map<string, RawEntry>();
  const warnings: string[] = [];
  const bind = (pairs: ReadonlyArray<readonly [string, unknown]>, source: Source): void => {
    bindSource(pairs, source, { index, raw, warnings, unknownKeys: options.unknownKeys, specList });
  };

  // Lowest precedence first; later writes win.
  for (const spec of specList) {
    if (spec.default !== undefined) {
      raw.set(index.uniformOf(spec.key), { key: spec.key, raw: spec.default, source: 'default' });
    }
  }
  if (input.file) bind(Object.entries(parseSettingsFile(input.file.path, input.file.text)), 'file');
  const fromEnvironment = environmentPairs(input.env ?? {}, index, options.unknownKeys, specList);
  warnings.push(...fromEnvironment.warnings);
  bind(fromEnvironment.pairs, 'environment');
  bind(
    Object.entries(input.overrides ?? {}).filter(([, value]) => value !== undefined),
    'programmatic',
  );
  const { pairs, positionals } = parseArguments(input.args ?? []);
  bind(pairs, 'argument');
  const resolved = resolveEntryPlaceholders(raw, input.env ?? {}, index);

  const values = new Map<string, ResolvedSetting>();
  for (const [uniform, entry] of resolved) {
    const spec = index.specOf(uniform);
    const value = spec ? coerce(spec, entry) : coerceLoose(entry.raw);
    values.set(uniform, {
      key: entry.key,
      value,
      source: entry.source,
      ...(entry.spelling === undefined ? {} : { spelling: entry.spelling }),
      ...(entry.fromSecret === true ? { fromSecret: true } : {}),
    });
  }
  const files = input.file ? [input.file.path] : [];
  return new Settings(index.byUniformKey, values, positionals, warnings, files);
}

/**
 * Every declared setting's `${...}` resolved (see setting-placeholders.ts). Undeclared properties a client
 * keeps are left as written: its reads resolve them across every property source, the server's included.
 */
function resolveEntryPlaceholders(
  raw: ReadonlyMap<string, RawEntry>,
  env: Readonly<Record<string, string | undefined>>,
  index: SettingsIndex,
): Map<string, RawEntry> {
  const placeholders = new SettingPlaceholders(raw, env, (uniform) => index.specOf(uniform)?.secret === true);
  const resolved = new Map<string, RawEntry>();
  for (const [uniform, entry] of raw) {
    const wanted = entry.declared === true && entry.source !== 'default';
    resolved.set(uniform, wanted ? resolveEntry(placeholders, entry, index.specOf(uniform)) : entry);
  }
  return resolved;
}

function resolveEntry(
  placeholders: SettingPlaceholders,
  entry: RawEntry,
  spec: SettingSpec | undefined,
): RawEntry {
  let fromSecret = false;
  let changed = false;
  const resolveText = (value: unknown): unknown => {
    if (typeof value !== 'string') return value;
    const result = placeholders.resolve(entry.key, value);
    fromSecret ||= result.fromSecret;
    changed ||= result.text !== value;
    return result.text;
  };
  let value: unknown;
  try {
    value = Array.isArray(entry.raw) ? entry.raw.map(resolveText) : resolveText(entry.raw);
  } catch (error) {
    const reason =
      error instanceof PlaceholderCycleError
        ? `holds a circular placeholder reference '\${${error.key}}'`
        : error instanceof PlaceholderLimitError
          ? `has placeholders that ${error.reason}`
          : undefined;
    if (reason === undefined) throw error;
    const shown = spec?.secret === true ? '' : ` '${String(entry.raw)}'`;
    throw new SettingsError(
      `Setting '${entry.key}' from ${entry.source}${shown} ${reason}`,
      entry.key,
      entry.source,
    );
  }
  if (!changed) return entry;
  return { ...entry, raw: value, written: entry.raw, fromSecret };
}

interface BindContext {
  readonly index: SettingsIndex;
  readonly raw: Map<string, RawEntry>;
  readonly warnings: string[];
  readonly unknownKeys: 'error' | 'keep';
  readonly specList: readonly SettingSpec[];
}

/**
 * Binds one source's pairs. Indexed entries of a list (`search-paths[0]`) are gathered, and the list they
 * form replaces the list of a lower source whole, as in Spring. A key given twice in one source: the last wins.
 */
function bindSource(
  pairs: ReadonlyArray<readonly [string, unknown]>,
  source: Source,
  ctx: BindContext,
): void {
  const lists = new Map<string, { key: string; items: unknown[] }>();
  for (const [key, value] of pairs) {
    const target: KeyTarget = ctx.index.targetOf(key);
    // Environment names carry no spelling of their own.
    const spelling = source === 'environment' ? undefined : key;
    switch (target.kind) {
      case 'setting':
        ctx.raw.set(ctx.index.uniformOf(target.spec.key), {
          key: target.spec.key,
          raw: value,
          source,
          spelling,
          declared: true,
        });
        break;
      case 'list-item': {
        const uniform = ctx.index.uniformOf(target.spec.key);
        const list = lists.get(uniform) ?? { key: target.spec.key, items: [] };
        list.items[target.index] = value;
        lists.set(uniform, list);
        break;
      }
      case 'unsupported': {
        const message = unsupportedSettingMessage(key, source, target.entry);
        if (target.entry.effect === 'refuse') throw new SettingsError(message, key, source);
        ctx.warnings.push(message);
        break;
      }
      case 'map-entry': {
        // `repos[test1].uri` and `repos.test1.uri` are one entry, read in the dotted spelling.
        const entryKey = ctx.index.dottedMapEntryKey(key);
        ctx.raw.set(ctx.index.uniformOf(entryKey), {
          key: canonicalKey(entryKey),
          raw: value,
          source,
          spelling: spelling === undefined ? undefined : entryKey,
          declared: true,
        });
        break;
      }
      case 'unknown':
        if (ctx.unknownKeys === 'error') {
          throw new SettingsError(unknownSettingMessage(key, source, ctx.specList), key, source);
        }
        ctx.raw.set(ctx.index.uniformOf(key), { key: canonicalKey(key), raw: value, source, spelling });
        break;
    }
  }
  for (const [uniform, list] of lists) {
    const items = list.items.filter((item) => item !== undefined);
    ctx.raw.set(uniform, { key: list.key, raw: items, source, declared: true });
  }
}
