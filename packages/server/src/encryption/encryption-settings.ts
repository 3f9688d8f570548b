/** The server's encryption settings, read once: Spring's `encrypt.*` keys plus the config server's own two. */
import {
  type EncryptionSettings,
  type SettingSpec,
  type Settings,
  encryptionSettingSpecs,
  readEncryptionSettings,
} from '@confbus/core';

const ENCRYPT = 'spring.cloud.config.server.encrypt';

export const serverEncryptionSettingSpecs: readonly SettingSpec[] = [
  ...encryptionSettingSpecs,
  {
    key: `${ENCRYPT}.enabled`,
    type: 'boolean',
    default: true,
    description:
      'Decrypt {cipher} values before serving them; false serves them as they are, for clients to decrypt',
  },
  {
    key: `${ENCRYPT}.prefix-invalid-properties`,
    type: 'boolean',
    default: true,
    aliases: [`${ENCRYPT}.prefixInvalidProperties`],
    description:
      'A value that does not decrypt is served as invalid.<key> = <n/a>; false serves its cipher text (without {cipher}) under its key',
  },
];

export interface ServerEncryptionSettings {
  /** The key or key store (core reads `encrypt.*`). */
  readonly key: EncryptionSettings;
  /** Decrypt `{cipher}` values before serving them. */
  readonly enabled: boolean;
  /** A value that does not decrypt is served as `invalid.<key>`. */
  readonly prefixInvalidProperties: boolean;
}

export function readServerEncryptionSettings(settings: Settings): ServerEncryptionSettings {
  return {
    key: readEncryptionSettings(settings),
    enabled: settings.boolean(`${ENCRYPT}.enabled`),
    prefixInvalidProperties: settings.boolean(`${ENCRYPT}.prefix-invalid-properties`),
  };
}
