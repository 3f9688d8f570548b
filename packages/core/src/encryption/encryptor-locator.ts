/**
 * Which encryptor a cipher text is for, after Spring Cloud Config's TextEncryptorLocator: one key for every
 * text (`encrypt.key`), or the key-store entry its `{key:alias}` / `{secret:...}` prefixes name
 * (KeyStoreTextEncryptorLocator; without prefixes, `encrypt.key-store.alias` and `.secret`).
 */
import { ConfbusError } from '../errors/confbus-error.js';
import { coreErrors } from '../errors.js';
import type { KeyStore } from './key-store.js';
import { type RsaSecretOptions, RsaSecretEncryptor } from './rsa-secret-encryptor.js';
import type { TextEncryptor } from './text-encryptor.js';

export interface TextEncryptorLocator {
  /** `keys` come from `encryptorKeys()`; throws a ConfbusError when the key they name is not available. */
  locate(keys: ReadonlyMap<string, string>): TextEncryptor;
  /** What the key is (kind and where it comes from), for logs and errors: never key material. */
  readonly description: string;
}

export class SingleTextEncryptorLocator implements TextEncryptorLocator {
  constructor(
    private readonly encryptor: TextEncryptor,
    readonly description: string,
  ) {}

  locate(): TextEncryptor {
    return this.encryptor;
  }
}

/** Encryptors recovered from the store are kept, so a {key:...} used by many values is recovered once. */
const MAX_CACHED_KEYS = 64;

export class KeyStoreTextEncryptorLocator implements TextEncryptorLocator {
  private readonly cache = new Map<string, TextEncryptor | ConfbusError>();
  readonly description: string;

  constructor(
    private readonly store: KeyStore,
    private readonly defaults: { readonly alias: string; readonly secret: string },
    private readonly rsa: RsaSecretOptions,
    location: string,
  ) {
    this.description = `RSA key '${defaults.alias}' from the key store ${location}`;
  }

  locate(keys: ReadonlyMap<string, string>): TextEncryptor {
    const alias = keys.get('key') ?? this.defaults.alias;
    const secret = keys.get('secret') ?? this.defaults.secret;
    // The secret is part of the cache key so that a wrong {secret:...} never reaches a cached key.
    const cacheKey = `${alias}\u0000${secret}`;
    let found = this.cache.get(cacheKey);
    if (found === undefined) {
      try {
        found = new RsaSecretEncryptor(this.store.keyPair(alias, secret), this.rsa);
      } catch (error) {
        if (!(error instanceof ConfbusError)) throw error;
        found = error;
      }
      if (this.cache.size >= MAX_CACHED_KEYS) this.cache.delete(this.cache.keys().next().value as string);
      this.cache.set(cacheKey, found);
    }
    if (found instanceof ConfbusError) throw found;
    return found;
  }
}

/** The error for "no key configured", naming the settings that would configure one. */
export function noKeyError(): ConfbusError {
  return new ConfbusError(
    coreErrors.CONFBUS_ENCRYPT_NO_KEY,
    'No key was installed for encryption service: set encrypt.key (a symmetric key, or a PEM RSA private key), or encrypt.key-store.location and encrypt.key-store.password',
  );
}
