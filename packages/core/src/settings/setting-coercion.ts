/**
 * A bound setting's value typed as its spec says (string, boolean, number, list), with the range checked; an
 * error names the setting, its source and the value (hidden when secret, or when a secret went into it).
 */
import { isJavaDouble } from '../codecs/property-value.js';
import type { SettingSpec, SettingValue } from './setting-spec.js';
import { type SettingSource, SettingsError, splitList } from './settings.js';

/** A setting's value as bound from its source, placeholders resolved. */
export interface BoundEntry {
  readonly raw: unknown;
  readonly source: SettingSource | 'programmatic';
  /** The value as written, when placeholders were resolved in it. */
  readonly written?: unknown;
  /** A secret went into the value through a placeholder: it is masked wherever the value would show. */
  readonly fromSecret?: boolean;
}

/** An undeclared property's value, kept as bound (scalars) or as text. */
export function coerceLoose(raw: unknown): SettingValue {
  if (typeof raw === 'string' || typeof raw === 'number' || typeof raw === 'boolean') return raw;
  if (Array.isArray(raw)) return raw.map(String);
  return String(raw);
}

function describe(spec: SettingSpec, entry: BoundEntry): string {
  const written = entry.written === undefined ? '' : ` (written '${String(entry.written)}')`;
  const shown = spec.secret || entry.fromSecret ? '(hidden)' : `'${String(entry.raw)}'${written}`;
  return `Setting '${spec.key}' from ${entry.source}: ${shown}`;
}

export function coerce(spec: SettingSpec, entry: BoundEntry): SettingValue {
  const { raw } = entry;
  const fail = (what: string): never => {
    throw new SettingsError(`${describe(spec, entry)} ${what}`, spec.key, entry.source);
  };
  switch (spec.type) {
    case 'string':
      // A list is not one value; a YAML float is (`label: 1.0` is the text `1.0`, as Spring binds a Double).
      if (typeof raw === 'object' && raw !== null && !isJavaDouble(raw)) fail('must be a single value');
      return String(raw);
    case 'boolean': {
      if (typeof raw === 'boolean') return raw;
      const text = String(raw).trim().toLowerCase();
      if (['true', 'yes', 'on', '1'].includes(text)) return true;
      if (['false', 'no', 'off', '0'].includes(text)) return false;
      return fail('must be true or false');
    }
    case 'integer':
    case 'number': {
      const text = String(raw).trim();
      const value = text === '' ? Number.NaN : Number(text);
      if (!Number.isFinite(value) || (spec.type === 'integer' && !Number.isInteger(value))) {
        fail(spec.type === 'integer' ? 'must be a whole number' : 'must be a number');
      }
      const tooLow = spec.min !== undefined && value < spec.min;
      const tooHigh = spec.max !== undefined && value > spec.max;
      if (tooLow || tooHigh) fail(`must be ${rangeText(spec)}`);
      return value;
    }
    case 'list':
      if (Array.isArray(raw)) return raw.map((item) => String(item).trim()).filter((item) => item !== '');
      return splitList(String(raw));
  }
}

function rangeText(spec: SettingSpec): string {
  if (spec.min !== undefined && spec.max !== undefined) return `between ${spec.min} and ${spec.max}`;
  return spec.min !== undefined ? `at least ${spec.min}` : `at most ${spec.max}`;
}
