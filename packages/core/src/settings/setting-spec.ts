/** Declarations of the settings a confbus role understands, with Spring's key names. */
export type SettingType = 'string' | 'integer' | 'number' | 'boolean' | 'list';

export interface SettingSpec {
  /** Spring's canonical (kebab-case, dotted) name, e.g. `spring.cloud.config.server.git.default-label`. */
  readonly key: string;
  readonly type: SettingType;
  readonly default?: string | number | boolean | readonly string[];
  /** Never logged, never echoed in an error, masked in /actuator/env. */
  readonly secret?: boolean;
  /** One line for `confbus --help` and the settings table in docs/settings.md. */
  readonly description: string;
  /** A key that is a map (`...repos.<name>.uri`): any key below it is accepted as a string. */
  readonly isPrefix?: boolean;
  /** With isPrefix: a list of objects (`composite[0].type`), its keys below `<key>[n].`, not `<key>.<name>.`. */
  readonly indexed?: boolean;
  /** Other spellings Spring's relaxed binding accepts (`encrypt.keyStore.location`); they set this key. */
  readonly aliases?: readonly string[];
  /** Bounds of a number setting, checked at start-up so the error names the setting (`server.port=99999`). */
  readonly min?: number;
  readonly max?: number;
}

export type SettingValue = string | number | boolean | readonly string[];
