/**
 * Reads the encryption settings at start-up: the key store file (core does no I/O), the key, and whether
 * environments are decrypted before they are served. A key that is set but unusable stops the start with a
 * message naming the setting; the key itself is never logged.
 */
import { readFile } from 'node:fs/promises';
import { type Logger, type TextEncryptorLocator, createEncryptorLocator } from '@confbus/core';
import { keyStorePath, keyStoreReadError } from '@confbus/core/internal';
import { EnvironmentDecryptor } from './environment-decryptor.js';
import type { ServerEncryptionSettings } from './encryption-settings.js';

export interface ServerEncryption {
  /** Undefined when no key is configured. */
  readonly locator: TextEncryptorLocator | undefined;
  /** Undefined when server-side decryption is off (`spring.cloud.config.server.encrypt.enabled=false`). */
  readonly decryptor: EnvironmentDecryptor | undefined;
}

export async function loadServerEncryption(
  settings: ServerEncryptionSettings,
  cwd: string,
  logger: Logger,
): Promise<ServerEncryption> {
  const encryption = settings.key;
  for (const note of encryption.ignored) logger.warn({}, note);
  let keyStoreBytes: Buffer | undefined;
  if (encryption.keyStore !== undefined) {
    const path = keyStorePath(encryption.keyStore.location, cwd);
    keyStoreBytes = await readFile(path).catch((error: NodeJS.ErrnoException) => {
      throw keyStoreReadError(path, error);
    });
  }
  const locator = await createEncryptorLocator(encryption, keyStoreBytes);
  const { enabled } = settings;
  if (locator === undefined) {
    logger.info(
      { serverSideDecryption: enabled },
      enabled
        ? 'No encryption key (encrypt.key or encrypt.key-store.*): {cipher} values will be served as invalid.<key>'
        : 'No encryption key; {cipher} values are passed through to clients',
    );
  } else {
    logger.info({ key: locator.description, serverSideDecryption: enabled }, 'Encryption key ready');
  }
  const decryptor = enabled
    ? new EnvironmentDecryptor({
        locator,
        prefixInvalidProperties: settings.prefixInvalidProperties,
        logger,
      })
    : undefined;
  return { locator, decryptor };
}
