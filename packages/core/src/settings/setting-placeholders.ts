/**
 * `${...}` in setting values, resolved as Spring Boot resolves them when it binds `application.yml`
 * (PropertySourcesPlaceholdersResolver): against the other settings and the environment variables, in Spring's
 * precedence (arguments, then environment variables, then the settings file), with `${NAME:default}`, nesting
 * and `\${` for a literal `${`. A placeholder nothing resolves stays as written (Boot binds with
 * ignoreUnresolvablePlaceholders); a cycle is an error, as Spring's "Circular placeholder reference".
 * Defaults are never looked up: Spring keeps them in its beans, not in the environment, so `${server.port}`
 * resolves only when someone set it.
 */
import { resolveValuePlaceholders } from '../environment/placeholders.js';
import { isSecretKey } from '../secrets.js';
import { environmentNamesFor, uniformKey } from './relaxed-names.js';

/** A setting as bound from one source, before coercion. */
export interface BoundValue {
  readonly raw: unknown;
  readonly source: 'argument' | 'programmatic' | 'environment' | 'file' | 'default';
}

/** A resolved text, and whether a secret went into it (its value is then shown nowhere). */
export interface ResolvedText {
  readonly text: string;
  readonly fromSecret: boolean;
}

export class SettingPlaceholders {
  constructor(
    /** Bound settings by `uniformKey`. */
    private readonly bound: ReadonlyMap<string, BoundValue>,
    private readonly env: Readonly<Record<string, string | undefined>>,
    /** Whether a declared setting is secret (by `uniformKey`). */
    private readonly isSecretSetting: (uniform: string) => boolean,
  ) {}

  /**
   * `text` with its placeholders resolved. Throws a PlaceholderCycleError for a cycle (the caller names the
   * setting) and a PlaceholderLimitError for an expansion beyond the limits.
   */
  resolve(key: string, text: string): ResolvedText {
    if (!text.includes('${')) return { text, fromSecret: false };
    let fromSecret = false;
    const lookup = (name: string): string | undefined => {
      const found = this.lookup(name);
      if (found !== undefined && (found.secret || isSecretKey(name))) fromSecret = true;
      return found?.value;
    };
    const resolved = resolveValuePlaceholders(key, text, lookup, { source: 'settings', circular: 'fail' });
    return { text: resolved, fromSecret };
  }

  /**
   * Spring's order: arguments (and programmatic values), then environment variables, then the file. A setting
   * bound from the environment is found under its key; any variable also under its own name (`${GIT_TOKEN}`).
   */
  private lookup(name: string): { value: string; secret: boolean } | undefined {
    const uniform = uniformKey(name);
    const setting = this.bound.get(uniform);
    const asSetting = (entry: BoundValue) => ({
      value: textOf(entry.raw),
      secret: this.isSecretSetting(uniform),
    });
    if (setting && setting.source !== 'file' && setting.source !== 'default') return asSetting(setting);
    const variable = this.variable(name);
    if (variable !== undefined) return { value: variable, secret: false };
    if (setting?.source === 'file') return asSetting(setting);
    return undefined;
  }

  /**
   * An environment variable by the name as written, then as Boot's SystemEnvironmentPropertySource tries it
   * (`.` and `-` as `_`, upper case), then as relaxed binding maps a key (`-` dropped: `GIT_DEFAULTLABEL`).
   */
  private variable(name: string): string | undefined {
    const upper = name.toUpperCase();
    const candidates = [
      name,
      name.replace(/\./g, '_'),
      name.replace(/-/g, '_'),
      name.replace(/[.-]/g, '_'),
      upper,
      upper.replace(/\./g, '_'),
      upper.replace(/-/g, '_'),
      upper.replace(/[.-]/g, '_'),
      ...environmentNamesFor(name),
    ];
    for (const candidate of candidates) {
      const value = this.env[candidate];
      if (value !== undefined) return value;
    }
    return undefined;
  }
}

/** A bound value as a placeholder sees it: a list joins with commas, as Spring shows a list property. */
function textOf(raw: unknown): string {
  return Array.isArray(raw) ? raw.map(String).join(',') : String(raw);
}
