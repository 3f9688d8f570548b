/**
 * Client-side decryption (Spring's DecryptEnvironmentPostProcessor / AbstractEnvironmentDecrypt), for servers
 * that pass `{cipher}` values through: a `decrypted` layer on top of all others holds each key whose winning
 * value is a `{cipher}` value, decrypted with the client's own `encrypt.*` key. The layers below keep the cipher
 * text, so the backup file (written from what the server sent) never holds a secret in plain text, and
 * /actuator/env masks the whole `decrypted` layer (every key of it is a decrypted key). As in Spring, a list is taken whole from the highest
 * layer that has any element of it once one of its elements is encrypted. Beyond Spring, `{key:...}` and
 * `{secret:...}` prefixes choose a key-store entry here too (Spring's client ignores them and fails).
 */
import { readFile } from 'node:fs/promises';
import {
  CIPHER_MARKER,
  ConfbusError,
  type CipherScope,
  type PropertyValue,
  type TextEncryptorLocator,
  createEncryptorLocator,
  decryptText,
  isCipherValue,
} from '@confbus/core';
import { keyStorePath, keyStoreReadError } from '@confbus/core/internal';
import type { ClientSettings } from '../client-settings.js';
import { mapLayer, type PropertyLayer } from './config-snapshot.js';
import { clientErrors } from '../errors.js';

/** The name of the layer holding decrypted values (Spring's `decrypted` property source). */
export const DECRYPTED_LAYER = 'decrypted';

export interface ClientDecryptor {
  readonly locator: TextEncryptorLocator | undefined;
  readonly scope: CipherScope;
  /** encrypt.fail-on-error: a value that does not decrypt fails start-up or the refresh; else it becomes "". */
  readonly failOnError: boolean;
  readonly warn: (message: string) => void;
}

/** Builds the client's key from its settings; reads the key store file when one is configured. */
export async function createClientDecryptor(
  settings: ClientSettings,
  cwd: string,
  warn: (message: string) => void,
): Promise<ClientDecryptor> {
  const { encryption } = settings;
  for (const note of encryption.ignored) warn(note);
  let bytes: Buffer | undefined;
  if (encryption.keyStore !== undefined) {
    const path = keyStorePath(encryption.keyStore.location, cwd);
    bytes = await readFile(path).catch((error: NodeJS.ErrnoException) => {
      throw keyStoreReadError(path, error);
    });
  }
  return {
    locator: await createEncryptorLocator(encryption, bytes),
    scope: { name: settings.name, profiles: settings.profiles.join(',') },
    failOnError: settings.decryptFailOnError,
    warn,
  };
}

const COLLECTION_PROPERTY = /^(\S+)?\[(\d+)\](\.\S+)?$/;

/** The `decrypted` layer for these layers (highest precedence first), or undefined when nothing is encrypted. */
export function decryptedLayer(
  layers: readonly PropertyLayer[],
  decryptor: ClientDecryptor,
): PropertyLayer | undefined {
  // The common case, nothing encrypted, costs one pass over the values (no copy of each layer's keys).
  if (!layers.some(hasCipherValue)) return undefined;
  const decrypted = new Map<string, PropertyValue>();
  let any = false;
  const visited = new Set<string>();
  for (const layer of layers) {
    for (const key of layer.keys()) {
      if (visited.has(key)) continue;
      const collection = COLLECTION_PROPERTY.exec(key);
      if (collection) {
        const prefix = `${collection[1] ?? ''}[`;
        const elements = [...layer.keys()].filter((k) => COLLECTION_PROPERTY.test(k) && k.startsWith(prefix));
        const encrypted = elements.some((k) => isCipherValue(layer.get(k)));
        for (const element of elements) {
          visited.add(element);
          const value = layer.get(element);
          if (encrypted && value !== undefined)
            decrypted.set(element, decryptValue(element, value, decryptor));
        }
        any ||= encrypted;
      } else {
        visited.add(key);
        const value = layer.get(key);
        if (isCipherValue(value)) {
          decrypted.set(key, decryptValue(key, value, decryptor));
          any = true;
        }
      }
    }
  }
  return any ? mapLayer(DECRYPTED_LAYER, decrypted, decrypted.keys()) : undefined;
}

function hasCipherValue(layer: PropertyLayer): boolean {
  for (const key of layer.keys()) if (isCipherValue(layer.get(key))) return true;
  return false;
}

function decryptValue(key: string, value: PropertyValue, decryptor: ClientDecryptor): PropertyValue {
  if (!isCipherValue(value)) return value;
  try {
    return decryptText(decryptor.locator, decryptor.scope, value.slice(CIPHER_MARKER.length));
  } catch (error) {
    if (!(error instanceof ConfbusError)) throw error;
    const message = `Cannot decrypt: key=${key} (${error.message})`;
    decryptor.warn(message);
    if (decryptor.failOnError)
      throw new ConfbusError(clientErrors.CONFBUS_CLIENT_DECRYPT_FAILED, message, { cause: error });
    return '';
  }
}
