/**
 * The operations of Spring's EncryptionController and CipherEnvironmentEncryptor on one text, shared by the
 * server's endpoints, its environments and the `confbus encrypt|decrypt` command: prefixes pick the key, the
 * prefixes go back in front of a fresh cipher text, and a value that does not decrypt is an error naming no value.
 */
import { addPrefixes, encryptorKeys, stripPrefixes } from './cipher-prefixes.js';
import { type TextEncryptorLocator, noKeyError } from './encryptor-locator.js';
import type { TextEncryptor } from './text-encryptor.js';

/** The marker of an encrypted property value. */
export const CIPHER_MARKER = '{cipher}';

export function isCipherValue(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith(CIPHER_MARKER);
}

/**
 * Whether a `{cipher}` value carries a key password in clear (a `{secret:...}` prefix, read as Spring reads
 * prefixes): whatever shows or stores such a value treats it as a secret, not as harmless cipher text.
 */
export function carriesKeySecret(value: unknown): boolean {
  return isCipherValue(value) && encryptorKeys('', '', value.slice(CIPHER_MARKER.length)).has('secret');
}

/** Who the text is for: Spring passes the application and profiles to the locator (default application/default). */
export interface CipherScope {
  readonly name: string;
  readonly profiles: string;
}

export const DEFAULT_SCOPE: CipherScope = { name: 'application', profiles: 'default' };

export function locateEncryptor(
  locator: TextEncryptorLocator | undefined,
  scope: CipherScope,
  text: string,
): { encryptor: TextEncryptor; keys: Map<string, string> } {
  if (locator === undefined) throw noKeyError();
  const keys = encryptorKeys(scope.name, scope.profiles, text);
  return { encryptor: locator.locate(keys), keys };
}

/** `POST /encrypt`: the cipher text, behind the same `{key:...}` prefixes as the input (no `{cipher}` marker). */
export function encryptText(
  locator: TextEncryptorLocator | undefined,
  scope: CipherScope,
  text: string,
): string {
  const { encryptor, keys } = locateEncryptor(locator, scope, text);
  return addPrefixes(keys, encryptor.encrypt(stripPrefixes(text)));
}

/**
 * `POST /decrypt` and one `{cipher}` value (given without its marker): the key is chosen from the raw text's
 * prefixes; `prepare` sees the cipher text without them (the endpoint's form-data handling).
 */
export function decryptText(
  locator: TextEncryptorLocator | undefined,
  scope: CipherScope,
  text: string,
  prepare: (cipherText: string) => string = (cipherText) => cipherText,
): string {
  const { encryptor } = locateEncryptor(locator, scope, text);
  return encryptor.decrypt(prepare(stripPrefixes(text)));
}
