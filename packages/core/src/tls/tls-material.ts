/**
 * The key material of one TLS endpoint (server listener, config client, RabbitMQ or Kafka connection), read from
 * the stores and files Spring's settings name, as PEM strings Node's `tls` options take: a private key with its
 * certificate chain, and the certificates to trust. Shared by every role so that key stores mean the same thing
 * everywhere. Core does no I/O: the caller hands in a reader (fs.readFile), which also keeps tests fast.
 *
 * Formats: PKCS12 and JKS stores (both through jks-js, which checks the store's integrity with its password;
 * Node's own `pfx` option reads PKCS12 but neither picks an alias nor reads JKS nor a trust-only store), and PEM
 * files, recognised from the content whatever the type says — as Spring Boot's PEM bundles are. A store whose
 * type names something else (JCEKS, PKCS11) is refused with a message naming the setting.
 */
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as JksJs from 'jks-js';
import { ConfbusError } from '../errors/confbus-error.js';
import { coreErrors } from '../errors.js';
import { type StoreContents, type StoreKeyEntry, readPkcs12 } from './pkcs12-store.js';

/** One file a setting names; `setting` is the key messages name. */
export interface TlsFileSource {
  readonly location: string;
  readonly setting: string;
}

export interface TlsStoreSource extends TlsFileSource {
  /** PKCS12 (default), JKS or PEM; PEM content is recognised whatever this says. */
  readonly type?: string | undefined;
  readonly password?: string | undefined;
}

export interface TlsKeyStoreSource extends TlsStoreSource {
  /** The key entry to use (case-insensitive, as Java); required when the store holds several. */
  readonly alias?: string | undefined;
  readonly aliasSetting?: string;
  /** The key's own password when it differs from the store's (JKS). */
  readonly keyPassword?: string | undefined;
}

/** What a role's settings name; each part optional. */
export interface TlsSources {
  readonly keyStore?: TlsKeyStoreSource | undefined;
  /** PEM certificate chain and private key (Spring Boot's `certificate` / `certificate-private-key`). */
  readonly certificate?: TlsFileSource | undefined;
  readonly privateKey?: (TlsFileSource & { readonly password?: string | undefined }) | undefined;
  readonly trustStore?: TlsStoreSource | undefined;
  readonly trustCertificate?: TlsFileSource | undefined;
}

export interface TlsMaterial {
  /** PEM private key (unencrypted) and its certificate chain, leaf first. */
  readonly key?: string;
  readonly cert?: string;
  /** Certificates to trust, PEM; absent: Node's default roots. */
  readonly ca?: readonly string[];
  /** The paths read (a reload watches them). */
  readonly files: readonly string[];
}

export type TlsFileReader = (path: string) => Promise<Uint8Array>;

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?-----END \1-----/g;

/** Reads what `sources` name; relative locations are relative to `cwd`. */
export async function loadTlsMaterial(
  sources: TlsSources,
  { read, cwd }: { read: TlsFileReader; cwd: string },
): Promise<TlsMaterial> {
  const files: string[] = [];
  const fetch = async (source: TlsFileSource): Promise<Buffer> => {
    const path = tlsFilePath(source, cwd);
    files.push(path);
    try {
      const bytes = await read(path);
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw tlsError(source, `cannot read ${path}: ${code ?? (error as Error).message}`, error);
    }
  };
  let identity: { key: string; cert: string } | undefined;
  if (sources.certificate !== undefined || sources.privateKey !== undefined) {
    identity = await pemIdentity(sources, fetch);
  } else if (sources.keyStore !== undefined) {
    identity = await storeIdentity(sources.keyStore, await fetch(sources.keyStore));
  }
  const ca: string[] = [];
  if (sources.trustCertificate !== undefined) {
    ca.push(...certificatesOf(sources.trustCertificate, pemText(await fetch(sources.trustCertificate))));
  }
  if (sources.trustStore !== undefined) {
    ca.push(...(await storeCertificates(sources.trustStore, await fetch(sources.trustStore))));
  }
  return { ...identity, ...(ca.length > 0 ? { ca } : {}), files };
}

async function pemIdentity(
  sources: TlsSources,
  fetch: (source: TlsFileSource) => Promise<Buffer>,
): Promise<{ key: string; cert: string }> {
  const { certificate, privateKey } = sources;
  if (certificate === undefined || privateKey === undefined) {
    const given = (certificate ?? privateKey) as TlsFileSource;
    throw tlsError(given, 'a PEM certificate and its private key are set together (one is missing)');
  }
  const cert = certificatesOf(certificate, pemText(await fetch(certificate))).join('\n');
  const key = privateKeyOf(privateKey, pemText(await fetch(privateKey)), privateKey.password);
  return { key, cert };
}

/** A key store's one key entry (or the one `alias` names): its key and chain. */
async function storeIdentity(
  source: TlsKeyStoreSource,
  bytes: Buffer,
): Promise<{ key: string; cert: string }> {
  if (isPem(bytes)) {
    const text = pemText(bytes);
    return {
      key: privateKeyOf(source, text, source.keyPassword),
      cert: certificatesOf(source, text).join('\n'),
    };
  }
  const { keys } = await storeContents(source, bytes, source.keyPassword);
  let chosen: StoreKeyEntry | undefined;
  if (source.alias !== undefined && source.alias !== '') {
    const wanted = source.alias.toLowerCase();
    chosen = keys.find((entry) => entry.alias.toLowerCase() === wanted);
    if (chosen === undefined) {
      throw tlsError(
        { location: source.location, setting: source.aliasSetting ?? source.setting },
        `no key entry '${source.alias}' in ${source.location} (key entries: ${names(keys)})`,
      );
    }
  } else if (keys.length === 1) {
    chosen = keys[0]!;
  } else {
    throw tlsError(
      source,
      keys.length === 0
        ? `${source.location} holds no private key entry`
        : `${source.location} holds several key entries (${names(keys)}): set ${source.aliasSetting ?? 'the key alias'}`,
    );
  }
  if (chosen.chain.length === 0)
    throw tlsError(source, `the key entry in ${source.location} has no certificate`);
  return { key: chosen.key, cert: chosen.chain.join('\n') };
}

/**
 * What a trust store trusts: its certificate entries and, as Java's trust manager does, the certificate of each
 * key entry (a key store doubling as a trust store).
 */
async function storeCertificates(source: TlsStoreSource, bytes: Buffer): Promise<string[]> {
  if (isPem(bytes)) return certificatesOf(source, pemText(bytes));
  const { keys, certificates } = await storeContents(source, bytes, undefined);
  const trusted = [...certificates, ...keys.flatMap((entry) => entry.chain.slice(0, 1))];
  if (trusted.length === 0) throw tlsError(source, `${source.location} holds no certificate`);
  return trusted;
}

type JksModule = typeof JksJs;
const JKS_MAGIC = 0xfeedfeed;

/** A PKCS12 or JKS store's entries; the format is recognised from the content, as Java 9+ does. */
async function storeContents(
  source: TlsStoreSource,
  bytes: Buffer,
  keyPassword: string | undefined,
): Promise<StoreContents> {
  const type = (source.type ?? 'PKCS12').trim().toUpperCase();
  if (type !== 'PKCS12' && type !== 'JKS' && type !== 'PEM') {
    throw tlsError(source, `store type '${source.type}' is not supported (PKCS12, JKS or PEM)`);
  }
  if (source.password === undefined) {
    throw tlsError(source, `${source.location} is a key store: its password setting is required`);
  }
  try {
    if (bytes.length >= 4 && bytes.readUInt32BE(0) === JKS_MAGIC) {
      // Loaded on demand: a process without key stores never loads the parsers.
      const jks: JksModule = await import('jks-js');
      const keys: StoreKeyEntry[] = [];
      const certificates: string[] = [];
      for (const [alias, entry] of Object.entries(jks.toPem(bytes, source.password, keyPassword))) {
        if (entry.key !== undefined)
          keys.push({ alias, key: entry.key, chain: entry.cert?.match(PEM_BLOCK) ?? [] });
        else if (entry.ca !== undefined) certificates.push(entry.ca);
      }
      return { keys, certificates };
    }
    return await readPkcs12(bytes, source.password);
  } catch (error) {
    throw tlsError(
      source,
      `cannot open ${source.location}: wrong password, or not a PKCS12, JKS or PEM file`,
      error,
    );
  }
}

function certificatesOf(source: TlsFileSource, text: string): string[] {
  const certificates = (text.match(PEM_BLOCK) ?? []).filter((block) =>
    block.startsWith('-----BEGIN CERTIFICATE-----'),
  );
  if (certificates.length === 0) throw tlsError(source, `${source.location} holds no PEM certificate`);
  for (const pem of certificates) {
    try {
      new X509Certificate(pem);
    } catch (error) {
      throw tlsError(source, `${source.location} holds a certificate that does not parse`, error);
    }
  }
  return certificates;
}

/** The PEM private key in `text`, decrypted (an `ENCRYPTED PRIVATE KEY` needs its password). */
function privateKeyOf(source: TlsFileSource, text: string, password: string | undefined): string {
  const block = (text.match(PEM_BLOCK) ?? []).find((pem) =>
    / PRIVATE KEY-----/.test(pem.split('\n')[0] ?? ''),
  );
  if (block === undefined) throw tlsError(source, `${source.location} holds no PEM private key`);
  try {
    return createPrivateKey({ key: block, ...(password === undefined ? {} : { passphrase: password }) })
      .export({ type: 'pkcs8', format: 'pem' })
      .toString();
  } catch (error) {
    throw tlsError(
      source,
      `cannot read the private key in ${source.location} (encrypted: is its password set?)`,
      error,
    );
  }
}

/** A location as Spring writes it: a path, `file:` path or URL; there is no class path here. */
export function tlsFilePath(source: TlsFileSource, cwd: string): string {
  const { location } = source;
  if (location.startsWith('classpath:')) {
    throw tlsError(
      source,
      `'${location}': there is no class path here; give the file's path (absolute, relative to ${cwd}, or a file: URL)`,
    );
  }
  if (location.startsWith('file://')) return fileURLToPath(location);
  const path = location.startsWith('file:') ? location.slice('file:'.length) : location;
  return isAbsolute(path) ? path : resolve(cwd, path);
}

function isPem(bytes: Buffer): boolean {
  return pemText(bytes).trimStart().startsWith('-----BEGIN');
}

function pemText(bytes: Buffer): string {
  return bytes.toString('utf8');
}

function names(entries: readonly StoreKeyEntry[]): string {
  return entries.map((entry) => entry.alias).join(', ') || 'none';
}

function tlsError(source: TlsFileSource, why: string, cause?: unknown): ConfbusError {
  return new ConfbusError(
    coreErrors.CONFBUS_TLS_MATERIAL,
    `${source.setting}: ${why}`,
    cause === undefined ? {} : { cause },
  );
}
