/**
 * Spring's key settings (spring-cloud-commons `KeyProperties`, `RsaProperties`) and how they choose the key,
 * as `EncryptorFactory` and `TextEncryptorUtils.keysConfigured` do: a key store when both
 * `encrypt.key-store.location` and `.password` are set; else `encrypt.key` — an RSA key when it holds a PEM
 * "RSA PRIVATE KEY" (always DEFAULT/CBC/`deadbeef`: Spring ignores `encrypt.rsa.*` and `encrypt.salt` there),
 * otherwise a symmetric password with `encrypt.salt`. The key store file is read by the caller.
 */
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfbusError } from '../errors/confbus-error.js';
import { coreErrors } from '../errors.js';
import type { SettingSpec } from '../settings/setting-spec.js';
import { type Settings, SettingsError } from '../settings/settings-resolver.js';
import { AesTextEncryptor } from './aes-encryptor.js';
import {
  KeyStoreTextEncryptorLocator,
  SingleTextEncryptorLocator,
  type TextEncryptorLocator,
} from './encryptor-locator.js';
import { KeyStore } from './key-store.js';
import { parseRsaPrivateKeyPem } from './rsa-keys.js';
import {
  RSA_DEFAULTS,
  type RsaAlgorithm,
  type RsaSecretOptions,
  RsaSecretEncryptor,
} from './rsa-secret-encryptor.js';

const RSA_ONLY_IN_KEY_STORES =
  'key stores only: a PEM encrypt.key always uses DEFAULT, CBC and deadbeef, as in Spring';

export const encryptionSettingSpecs: readonly SettingSpec[] = [
  {
    key: 'encrypt.key',
    type: 'string',
    secret: true,
    description:
      'Key for {cipher} values: a symmetric key (any text), or a PEM RSA private key (-----BEGIN RSA PRIVATE KEY-----)',
  },
  {
    key: 'encrypt.salt',
    type: 'string',
    default: 'deadbeef',
    description: 'Salt of the symmetric encrypt.key, in hex',
  },
  {
    key: 'encrypt.key-store.location',
    type: 'string',
    aliases: ['encrypt.keyStore.location'],
    description: 'Key store (JKS or PKCS12 file) holding the RSA key: a path or a file: URL',
  },
  {
    key: 'encrypt.key-store.password',
    type: 'string',
    secret: true,
    aliases: ['encrypt.keyStore.password'],
    description: 'Password of the key store',
  },
  {
    key: 'encrypt.key-store.alias',
    type: 'string',
    aliases: ['encrypt.keyStore.alias'],
    description: 'Alias of the key in the store, for values without a {key:alias} prefix',
  },
  {
    key: 'encrypt.key-store.secret',
    type: 'string',
    secret: true,
    aliases: ['encrypt.keyStore.secret'],
    description: 'Password of the key itself (default: the key store password)',
  },
  {
    key: 'encrypt.key-store.type',
    type: 'string',
    default: 'jks',
    aliases: ['encrypt.keyStore.type'],
    description: 'jks or pkcs12 (as in Java, either reads both formats)',
  },
  {
    key: 'encrypt.rsa.algorithm',
    type: 'string',
    default: 'DEFAULT',
    description: `RSA padding, DEFAULT (PKCS#1 v1.5) or OAEP; ${RSA_ONLY_IN_KEY_STORES}. Never change it once values exist`,
  },
  {
    key: 'encrypt.rsa.strong',
    type: 'boolean',
    default: false,
    description: `AES/GCM instead of AES/CBC inside RSA cipher texts; ${RSA_ONLY_IN_KEY_STORES}`,
  },
  {
    key: 'encrypt.rsa.salt',
    type: 'string',
    default: 'deadbeef',
    description: `Salt of the AES key inside RSA cipher texts (hex, or text); ${RSA_ONLY_IN_KEY_STORES}`,
  },
];

export interface KeyStoreSettings {
  readonly location: string;
  readonly password: string;
  readonly alias: string;
  readonly secret: string;
  readonly type: string;
}

export interface EncryptionSettings {
  readonly key: string | undefined;
  readonly salt: string;
  readonly keyStore: KeyStoreSettings | undefined;
  readonly rsa: RsaSecretOptions;
  /** Settings that are set but have no effect, in words for a WARN line (never a value). */
  readonly ignored: readonly string[];
}

export function readEncryptionSettings(settings: Settings): EncryptionSettings {
  const ignored: string[] = [];
  const location = settings.optionalString('encrypt.key-store.location')?.trim();
  const password = settings.optionalString('encrypt.key-store.password');
  let keyStore: KeyStoreSettings | undefined;
  if (location !== undefined && location !== '') {
    if (password === undefined || password.trim() === '') {
      ignored.push(
        'encrypt.key-store.location is set without encrypt.key-store.password: the key store is not used',
      );
    } else {
      const alias = settings.optionalString('encrypt.key-store.alias');
      if (alias === undefined) {
        throw new SettingsError(
          "Setting 'encrypt.key-store.alias' is required with encrypt.key-store.location: it names the key in the store",
          'encrypt.key-store.alias',
          'default',
        );
      }
      keyStore = {
        location,
        password,
        alias,
        secret: settings.optionalString('encrypt.key-store.secret') ?? password,
        type: settings.string('encrypt.key-store.type'),
      };
    }
  }
  const key = settings.optionalString('encrypt.key');
  const rsa: RsaSecretOptions = {
    algorithm: rsaAlgorithm(settings),
    strong: settings.boolean('encrypt.rsa.strong'),
    salt: settings.string('encrypt.rsa.salt'),
  };
  if (keyStore === undefined && key !== undefined && key.includes('RSA PRIVATE KEY')) {
    const set = ['encrypt.rsa.algorithm', 'encrypt.rsa.strong', 'encrypt.rsa.salt', 'encrypt.salt'].filter(
      (name) => settings.sourceOf(name) !== 'default' && settings.sourceOf(name) !== undefined,
    );
    if (set.length > 0)
      ignored.push(
        `${set.join(', ')} apply to key stores only: ignored for the PEM encrypt.key (as in Spring)`,
      );
  }
  if (keyStore === undefined && key !== undefined && /-----BEGIN (?:ENCRYPTED )?PRIVATE KEY-----/.test(key)) {
    ignored.push(
      'encrypt.key holds a PKCS#8 PEM key, which Spring (and confbus) use as a symmetric password: for RSA, convert it with `openssl rsa -traditional`',
    );
  }
  return { key, salt: settings.string('encrypt.salt'), keyStore, rsa, ignored };
}

function rsaAlgorithm(settings: Settings): RsaAlgorithm {
  const text = settings.string('encrypt.rsa.algorithm').trim().toUpperCase();
  if (text === 'DEFAULT' || text === 'OAEP') return text;
  throw new SettingsError(
    `Setting 'encrypt.rsa.algorithm' must be DEFAULT or OAEP, not '${text}'`,
    'encrypt.rsa.algorithm',
    settings.sourceOf('encrypt.rsa.algorithm') ?? 'default',
  );
}

/**
 * The file behind `encrypt.key-store.location`: a path (relative to `cwd`) or a `file:` URL. Spring also
 * takes `classpath:` resources; confbus has no class path, so that is an error that says what to write.
 */
export function keyStorePath(location: string, cwd: string): string {
  if (location.startsWith('classpath:')) {
    throw new ConfbusError(
      coreErrors.CONFBUS_ENCRYPT_BAD_KEY,
      `encrypt.key-store.location '${location}': there is no class path here; give the file's path (absolute, relative to ${cwd}, or a file: URL)`,
    );
  }
  if (location.startsWith('file://')) return fileURLToPath(location);
  const path = location.startsWith('file:') ? location.slice('file:'.length) : location;
  return isAbsolute(path) ? path : resolve(cwd, path);
}

/** The error for a key store file that cannot be read (the callers do the reading: core does no I/O). */
export function keyStoreReadError(path: string, error: NodeJS.ErrnoException): ConfbusError {
  return new ConfbusError(
    coreErrors.CONFBUS_ENCRYPT_BAD_KEY,
    `Cannot read the key store ${path} (encrypt.key-store.location): ${error.code ?? error.message}`,
    { cause: error },
  );
}

/**
 * The locator for the settings, or undefined when no key is configured. A broken key fails here, at start,
 * rather than on the first value (Spring builds a key store's default key lazily).
 */
export async function createEncryptorLocator(
  settings: EncryptionSettings,
  keyStoreBytes: Uint8Array | undefined,
): Promise<TextEncryptorLocator | undefined> {
  const { keyStore, key } = settings;
  if (keyStore !== undefined) {
    // The caller's mistake (it reads the file), not a setting's.
    if (keyStoreBytes === undefined)
      throw new Error('createEncryptorLocator: the key store file was not read');
    const store = await KeyStore.load(keyStoreBytes, keyStore);
    const locator = new KeyStoreTextEncryptorLocator(store, keyStore, settings.rsa, keyStore.location);
    locator.locate(new Map());
    return locator;
  }
  if (key === undefined || key.trim() === '') return undefined;
  if (key.includes('RSA PRIVATE KEY')) {
    return new SingleTextEncryptorLocator(
      new RsaSecretEncryptor(parseRsaPrivateKeyPem(key), RSA_DEFAULTS),
      'RSA key (PEM in encrypt.key)',
    );
  }
  if (key.startsWith('ssh-rsa') || key.includes('RSA PUBLIC KEY')) {
    throw new ConfbusError(
      coreErrors.CONFBUS_ENCRYPT_BAD_KEY,
      'encrypt.key holds an RSA public key; it must hold the private key (PEM "RSA PRIVATE KEY") or a symmetric key (Spring: "Key data not in correct format")',
    );
  }
  return new SingleTextEncryptorLocator(
    new AesTextEncryptor(key, settings.salt),
    'symmetric key (encrypt.key)',
  );
}
