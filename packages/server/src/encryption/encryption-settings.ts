/** The server's encryption settings: Spring's `encrypt.*` keys plus the config server's own two. */
import { type SettingSpec, encryptionSettingSpecs } from '@confbus/core';

export const ENCRYPT = 'spring.cloud.config.server.encrypt';

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
