/**
 * The backup file's format: the last-known-good copy of the fetched environment, so a service can start when the config
 * server is down. Written atomically (temp file, fsync, rename; mode 0600). Secret values (per
 * isSecretKey, and values holding a URI with a password such as `jdbc:postgresql://app:pw@host/db`) are
 * AES-256-GCM encrypted with a key derived from `confbus.client.backup.key`, left out when there is no key,
 * or — only if asked for — stored in plain text. `{cipher}` values the server passed through are stored as
 * they came (still encrypted): the client decrypts them after reading, so their plain text never reaches the
 * file. One that carries a key password in clear (`{cipher}{key:k}{secret:pw}...`) is a secret value as above,
 * and so is every value a server decrypted (its source's `decryptedKeys`, kept in the file so a client started
 * from it masks them too).
 */
import { createCipheriv, createDecipheriv, randomBytes, scrypt } from 'node:crypto';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import {
  isCipherValue,
  isSecretKey,
  parseJsonExactIntegers,
  parseJsonInOrder,
  writeJson,
  type Environment,
  type PropertyValue,
  ConfbusError,
} from '@confbus/core';
import { carriesKeySecret, hasUriPassword } from '@confbus/core/internal';
import { parseEnvironment } from '../fetch/environment-json.js';
import { jsonFields, jsonMembers } from '../fetch/json-members.js';
import { clientErrors } from '../errors.js';

const FORMAT = 'confbus-client-backup/1';

export interface BackupOptions {
  /** From `deriveSealingKey(confbus.client.backup.key)`; undefined: no key. */
  readonly key: SealingKey | undefined;
  readonly plaintextSecrets: boolean;
}

/** The AES key derived from `confbus.client.backup.key` and the salt it was derived with (stored in the file). */
export interface SealingKey {
  readonly salt: Buffer;
  readonly key: Buffer;
}

/**
 * Derives the backup's key with a fresh salt. scrypt costs tens of milliseconds of CPU on purpose: the store
 * derives once and seals every later backup with it (each value still gets its own random IV).
 */
export async function deriveSealingKey(material: string): Promise<SealingKey> {
  const salt = randomBytes(16);
  return { salt, key: await deriveKey(material, salt) };
}

interface CipherValue {
  $cipher: string;
}

interface BackupFile {
  format: typeof FORMAT;
  savedAt: string;
  secrets: { mode: 'aes-256-gcm'; salt: string } | { mode: 'omitted' } | { mode: 'plaintext' };
  environment: {
    name: string;
    profiles: readonly string[];
    label: string | null;
    version: string | null;
    state: string | null;
    propertySources: Array<{
      name: string;
      /** In the environment's order (a Map, which writeJson writes as an object). */
      source: ReadonlyMap<string, PropertyValue | CipherValue>;
      decryptedKeys?: readonly string[];
    }>;
  };
}

function deriveKey(material: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(material, salt, 32, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** Writes the backup; resolves with how many secret values were left out (no key, no plaintext). */
export async function writeBackup(
  file: string,
  env: Environment,
  options: BackupOptions,
): Promise<{ omittedSecrets: number }> {
  const key = options.key?.key;
  const mode: BackupFile['secrets'] = options.key
    ? { mode: 'aes-256-gcm', salt: options.key.salt.toString('base64') }
    : options.plaintextSecrets
      ? { mode: 'plaintext' }
      : { mode: 'omitted' };
  let omittedSecrets = 0;
  const propertySources = env.propertySources.map((ps) => {
    const source = new Map<string, PropertyValue | CipherValue>();
    const decrypted = new Set(ps.decryptedKeys);
    for (const [name, value] of ps.source) {
      // A {cipher} value is already encrypted (with the encrypt.* key): kept as it is, it restores without a backup
      // key; unless it carries a key password in clear ({secret:...}), a secret like any other.
      const secret = isCipherValue(value)
        ? carriesKeySecret(value)
        : decrypted.has(name) || isSecretKey(name) || hasUriPassword(value);
      if (!secret || mode.mode === 'plaintext') source.set(name, value);
      else if (key) source.set(name, { $cipher: encrypt(key, name, writeJson(value)) });
      else omittedSecrets++;
    }
    return { name: ps.name, source, ...(decrypted.size > 0 ? { decryptedKeys: [...decrypted] } : {}) };
  });
  const body: BackupFile = {
    format: FORMAT,
    savedAt: new Date().toISOString(),
    secrets: mode,
    environment: {
      name: env.name,
      profiles: env.profiles,
      label: env.label,
      version: env.version,
      state: env.state,
      propertySources,
    },
  };
  await writeAtomically(file, `${writeJson(body, 2)}\n`);
  return { omittedSecrets };
}

export interface LoadedBackup {
  readonly environment: Environment;
  readonly savedAt: string;
  /** Why some values could not be restored (wrong or missing key); never contains a value. */
  readonly warnings: readonly string[];
}

export async function readBackup(file: string, keyMaterial: string | undefined): Promise<LoadedBackup> {
  // In order: each source's properties as the file lists them.
  const parsed = jsonFields(parseJsonInOrder(await readFile(file, 'utf8'))) ?? {};
  const environment = jsonFields(parsed.environment);
  const secrets = jsonFields(parsed.secrets) as BackupFile['secrets'] | undefined;
  if (parsed.format !== FORMAT || !environment || !secrets) {
    throw new ConfbusError(
      clientErrors.CONFBUS_BAD_BACKUP,
      `${file} is not a confbus client backup (${FORMAT})`,
    );
  }
  const warnings: string[] = [];
  const key =
    secrets.mode === 'aes-256-gcm' && keyMaterial
      ? await deriveKey(keyMaterial, Buffer.from(secrets.salt, 'base64'))
      : undefined;
  if (secrets.mode === 'aes-256-gcm' && !key) {
    warnings.push('secret values are encrypted but confbus.client.backup.key is not set: they are left out');
  }
  if (secrets.mode === 'omitted')
    warnings.push('secret values were not saved in the backup (no key was set)');
  const restore = (item: unknown) => {
    const ps = jsonFields(item);
    if (ps === undefined) return item;
    const source = new Map<string, unknown>();
    for (const [name, value] of jsonMembers(ps.source) ?? []) {
      const sealed = jsonFields(value);
      if (sealed === undefined || !('$cipher' in sealed)) {
        source.set(name, value);
        continue;
      }
      if (!key) continue;
      try {
        source.set(name, parseJsonExactIntegers(decrypt(key, name, String(sealed.$cipher))));
      } catch {
        warnings.push(`cannot decrypt '${name}' (wrong confbus.client.backup.key?): left out`);
      }
    }
    return { ...ps, source };
  };
  const sources = environment.propertySources;
  const propertySources = Array.isArray(sources) ? sources.map(restore) : sources;
  return {
    environment: parseEnvironment({ ...environment, propertySources }, `backup ${file}`),
    savedAt: typeof parsed.savedAt === 'string' ? parsed.savedAt : '',
    warnings,
  };
}

/** iv (12) | tag (16) | ciphertext, base64; the property name is authenticated so values cannot be swapped. */
function encrypt(key: Buffer, name: string, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(name, 'utf8'));
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
}

function decrypt(key: Buffer, name: string, text: string): string {
  const raw = Buffer.from(text, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  decipher.setAAD(Buffer.from(name, 'utf8'));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}

/** A crash mid-write must never leave a torn backup: the rename is the commit point. */
async function writeAtomically(file: string, text: string): Promise<void> {
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  // The folder is made only when missing: a recursive mkdir on every refresh's save showed in the CPU profile.
  const handle = await open(temp, 'wx', 0o600).catch(async (error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
    await mkdir(dirname(file), { recursive: true, mode: 0o700 });
    return open(temp, 'wx', 0o600);
  });
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  // Make the rename itself durable; some platforms cannot open a directory, which is fine.
  const dir = await open(dirname(file), 'r').catch(() => undefined);
  if (dir) {
    await dir.sync().catch(() => undefined);
    await dir.close();
  }
}
