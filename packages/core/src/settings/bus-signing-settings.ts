/**
 * Signing of bus messages (beyond Spring: Spring Cloud Bus trusts whoever can publish on the broker). Every
 * member of a fleet shares one HMAC-SHA256 key; how strictly a member insists on it is its mode:
 *
 * - `off` (default): messages are neither signed nor checked, as in Spring.
 * - `sign`: the mixed-fleet mode. Messages sent are signed; unsigned ones are still obeyed (Spring nodes cannot
 *   sign), but a message whose signature does not verify is dropped: someone forged or altered it.
 * - `require`: only messages with a valid, fresh signature are obeyed; unsigned ones are dropped too. For fleets of
 *   confbus nodes only (a Spring node's acks and commands would be dropped).
 *
 * `previous-key` is accepted while a new key rolls out (sign with the new key, verify with either).
 */
import type { SettingSpec } from './setting-spec.js';
import { SettingsError, type Settings } from './settings.js';

export const BUS_SIGNING_MODES = ['off', 'sign', 'require'] as const;
export type BusSigningMode = (typeof BUS_SIGNING_MODES)[number];

export interface BusSigningSettings {
  readonly mode: BusSigningMode;
  /** The key messages are signed with, then any previous key still accepted; empty when mode is off. */
  readonly keys: readonly string[];
  /** A signed event older (or newer) than this, by its timestamp, is a replay: dropped. */
  readonly maxAgeMs: number;
}

const signing = 'confbus.bus.signing';

export const busSigningSettingSpecs: readonly SettingSpec[] = [
  {
    key: `${signing}.mode`,
    type: 'string',
    default: 'off',
    description:
      'off | sign (sign what is sent; obey unsigned messages, drop wrongly signed ones: mixed fleets with Spring nodes) | require (drop unsigned and wrongly signed messages: confbus-only fleets)',
  },
  {
    key: `${signing}.key`,
    type: 'string',
    secret: true,
    description:
      'HMAC-SHA256 key shared by the fleet (at least 32 characters); required unless the mode is off',
  },
  {
    key: `${signing}.previous-key`,
    type: 'string',
    secret: true,
    description: 'A key still accepted (not used to sign) while a new key rolls out across the fleet',
  },
  {
    key: `${signing}.max-age`,
    type: 'integer',
    default: 300000,
    min: 1000,
    description:
      'A signed event whose timestamp is further than this many ms from now is dropped as a replay (keep clocks in sync)',
  },
];

const MIN_KEY_LENGTH = 32;

export function readBusSigningSettings(settings: Settings): BusSigningSettings {
  const modeKey = `${signing}.mode`;
  const mode = settings.string(modeKey).trim().toLowerCase();
  if (!(BUS_SIGNING_MODES as readonly string[]).includes(mode)) {
    throw new SettingsError(
      `${modeKey} must be off, sign or require`,
      modeKey,
      settings.sourceOf(modeKey) ?? 'default',
    );
  }
  const maxAgeMs = settings.number(`${signing}.max-age`);
  if (mode === 'off') return { mode: 'off', keys: [], maxAgeMs };
  const keys: string[] = [];
  for (const name of ['key', 'previous-key']) {
    const key = `${signing}.${name}`;
    const value = settings.optionalString(key);
    if (value === undefined) {
      if (name === 'key')
        throw new SettingsError(`${modeKey}=${mode} needs ${key}`, key, settings.sourceOf(key) ?? 'default');
      continue;
    }
    if (value.length < MIN_KEY_LENGTH) {
      throw new SettingsError(
        `${key} must be at least ${MIN_KEY_LENGTH} characters (e.g. openssl rand -base64 32)`,
        key,
        settings.sourceOf(key) ?? 'default',
      );
    }
    keys.push(value);
  }
  return { mode: mode as BusSigningMode, keys, maxAgeMs };
}
