/**
 * Java key stores holding the RSA keys of `encrypt.key-store.*`, read from bytes (the caller reads the file).
 * Like Java 9+, the format is recognised from the content whatever `type` says: "jks" and "pkcs12" stores
 * each open the other format. JKS is read with jks-js (the JKS reader on npm; it checks the store's integrity
 * digest and Sun's key protector), PKCS #12 with node-forge through it (PBES2/AES and the legacy PBE schemes,
 * MAC checked). Aliases are matched case-insensitively, as Java does. JCEKS and other types are refused.
 */
import { type KeyObject, X509Certificate, createPrivateKey, createPublicKey } from 'node:crypto';
import { ConfbusError } from '../errors/confbus-error.js';
import { coreErrors } from '../errors.js';
import type * as JksJs from 'jks-js';
import type { RsaKeyPair } from './rsa-keys.js';

export interface KeyStoreOptions {
  /** encrypt.key-store.password: opens the store (checks its integrity). */
  readonly password: string;
  /** encrypt.key-store.type (default jks). */
  readonly type: string;
  /** The location, for messages. */
  readonly location: string;
}

interface StoreEntry {
  /** PEM private key, already recovered (PKCS #12), or the protected key and how to recover it (JKS). */
  readonly privateKey?: (secret: string) => KeyObject;
  readonly certificate?: Buffer | string;
}

const JKS_MAGIC = 0xfeedfeed;
const JCEKS_MAGIC = 0xcececece;

type JksModule = typeof JksJs;

export class KeyStore {
  private constructor(
    private readonly entries: ReadonlyMap<string, StoreEntry>,
    private readonly options: KeyStoreOptions,
  ) {}

  static async load(bytes: Uint8Array, options: KeyStoreOptions): Promise<KeyStore> {
    const type = options.type.trim().toLowerCase();
    if (type !== 'jks' && type !== 'pkcs12' && type !== 'p12') {
      throw badStore(options, `type '${options.type}' is not supported (use jks or pkcs12)`);
    }
    const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const magic = data.length >= 4 ? data.readUInt32BE(0) : 0;
    if (magic === JCEKS_MAGIC)
      throw badStore(
        options,
        'JCEKS stores are not supported (convert it to PKCS12 with keytool -importkeystore)',
      );
    // Loaded on demand: processes without a key store never load the parsers.
    const jks: JksModule = await import('jks-js');
    const entries = magic === JKS_MAGIC ? readJks(jks, data, options) : readPkcs12(jks, data, options);
    return new KeyStore(entries, options);
  }

  /** The aliases in the store (lower case), for messages. */
  aliases(): string[] {
    return [...this.entries.keys()];
  }

  /** Spring's `KeyStoreKeyFactory.getKeyPair(alias, secret)`: public key from the certificate when there is one. */
  keyPair(alias: string, secret: string): RsaKeyPair {
    const entry = this.entries.get(alias.toLowerCase());
    if (entry === undefined) {
      throw new ConfbusError(coreErrors.CONFBUS_ENCRYPT_KEY_NOT_FOUND, `No key '${alias}' in the key store`);
    }
    const privateKey = entry.privateKey?.(secret);
    if (privateKey !== undefined && privateKey.asymmetricKeyType !== 'rsa') {
      throw new ConfbusError(
        coreErrors.CONFBUS_ENCRYPT_BAD_KEY,
        `Key '${alias}' in the key store is not an RSA key`,
      );
    }
    const publicKey =
      entry.certificate !== undefined
        ? new X509Certificate(entry.certificate).publicKey
        : privateKey !== undefined
          ? createPublicKey(privateKey)
          : undefined;
    if (publicKey === undefined || publicKey.asymmetricKeyType !== 'rsa') {
      throw new ConfbusError(
        coreErrors.CONFBUS_ENCRYPT_BAD_KEY,
        `Key '${alias}' in the key store is not an RSA key`,
      );
    }
    return privateKey === undefined ? { publicKey } : { publicKey, privateKey };
  }
}

function badStore(options: KeyStoreOptions, why: string, cause?: unknown): ConfbusError {
  return new ConfbusError(
    coreErrors.CONFBUS_ENCRYPT_BAD_KEY,
    `Cannot open the key store ${options.location}: ${why}`,
    cause === undefined ? {} : { cause },
  );
}

function cannotRecover(options: KeyStoreOptions, alias: string, cause?: unknown): ConfbusError {
  return new ConfbusError(
    coreErrors.CONFBUS_ENCRYPT_BAD_KEY,
    `Cannot recover key '${alias}' from the key store (wrong encrypt.key-store.secret or {secret:...}?)`,
    cause === undefined ? {} : { cause },
  );
}

function readJks(jks: JksModule, data: Buffer, options: KeyStoreOptions): Map<string, StoreEntry> {
  let parsed: ReturnType<JksModule['parseJks']>;
  try {
    parsed = jks.parseJks(data, options.password);
  } catch (error) {
    throw badStore(options, 'wrong encrypt.key-store.password, or the file is damaged', error);
  }
  const entries = new Map<string, StoreEntry>();
  for (const entry of parsed) {
    const alias = entry.alias.toLowerCase();
    if ('protectedPrivateKey' in entry) {
      const protectedKey = entry.protectedPrivateKey;
      entries.set(alias, {
        certificate: entry.chain[0]?.value,
        privateKey: (secret) => {
          try {
            return createPrivateKey(jks.decrypt(protectedKey, secret));
          } catch (error) {
            throw cannotRecover(options, alias, error);
          }
        },
      });
    } else {
      entries.set(alias, { certificate: entry.cert.value });
    }
  }
  return entries;
}

function readPkcs12(jks: JksModule, data: Buffer, options: KeyStoreOptions): Map<string, StoreEntry> {
  let pem: ReturnType<JksModule['toPem']>;
  try {
    // Opens the store with the password (MAC) and decrypts its bags with it, as keytool writes them.
    pem = jks.toPem(data, options.password);
  } catch (error) {
    throw badStore(options, 'wrong encrypt.key-store.password, or not a JKS or PKCS12 file', error);
  }
  const entries = new Map<string, StoreEntry>();
  for (const [name, entry] of Object.entries(pem)) {
    const alias = name.toLowerCase();
    const certificate = entry.cert ?? entry.ca;
    const keyPem = entry.key;
    entries.set(alias, {
      ...(certificate === undefined ? {} : { certificate }),
      ...(keyPem === undefined
        ? {}
        : {
            // Java decrypts a PKCS #12 key with the secret given; keytool encrypts it with the store password,
            // so any other secret fails there, and fails here the same way.
            privateKey: (secret: string) => {
              if (secret !== options.password) throw cannotRecover(options, alias);
              return createPrivateKey(keyPem);
            },
          }),
    });
  }
  return entries;
}
