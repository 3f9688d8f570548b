/**
 * `{cipher}` values in plain-text resources (`spring.cloud.config.server.encrypt.plain-text-encrypt`, off by
 * default), as Spring's CipherResource{Yaml,Properties,Json}Encryptor do it: every string value of a `.yml`,
 * `.yaml`, `.properties` or `.json` file that starts with `{cipher}` is decrypted, and each occurrence of it in
 * the text is replaced by the clear text, so quotes, comments and layout stay as written. It runs after
 * placeholders are resolved, and never on `application/octet-stream` answers (as in Spring). Other
 * extensions are served as they are.
 */
import { posix } from 'node:path';
import { type TextEncryptorLocator, decryptText } from '@confbus/core';
import { cipherValuesIn } from '@confbus/core/internal';

const CIPHER = '{cipher}';

/** Decrypts a resource's text for an environment (name, profiles); the path's extension picks the format. */
export type PlainTextDecryptor = (
  text: string,
  path: string,
  scope: { name: string; profiles: string },
) => string;

/** The decryptor when plain-text-encrypt is on, server-side decryption is enabled and a key exists. */
export function plainTextDecryptor(
  plainTextEncrypt: boolean,
  locator: TextEncryptorLocator | undefined,
  serverSideDecryption: boolean,
): PlainTextDecryptor | undefined {
  if (!plainTextEncrypt || !serverSideDecryption || locator === undefined) return undefined;
  return (text, path, scope) => {
    const values = cipherValuesIn(text, posix.extname(path).toLowerCase());
    let out = text;
    for (const value of values) {
      out = out.replaceAll(value, decryptText(locator, scope, value.slice(CIPHER.length)));
    }
    return out;
  };
}
