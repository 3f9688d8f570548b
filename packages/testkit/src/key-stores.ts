/**
 * Java key stores for encryption tests, made by the JDK's own `keytool` (so the files are exactly what users
 * have). Each `keytool` run starts a JVM (about a second): make the stores once per test file.
 */
import { execFile, execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const exec = promisify(execFile);

/** Whether `keytool` runs here; tests that need it report "not run: <reason>" otherwise. */
export function keytoolAvailable(): { ok: true } | { ok: false; reason: string } {
  try {
    execFileSync('keytool', ['-help'], { stdio: 'ignore' });
    return { ok: true };
  } catch (error) {
    return { ok: false, reason: `keytool (from a JDK) is not on PATH: ${(error as Error).message}` };
  }
}

export interface KeyStoreEntry {
  alias: string;
  /** The key's own password (JKS only: keytool ignores it for PKCS12). Default: the store password. */
  keyPassword?: string;
  /** Import only the certificate of `certificateOf`'s key under `alias`: an encrypt-only entry. */
  certificateOf?: string;
  keySize?: number;
}

export interface KeyStoreSpec {
  dir: string;
  file: string;
  type: 'JKS' | 'PKCS12';
  storePassword: string;
  entries: readonly KeyStoreEntry[];
}

/** Creates the store with keytool and resolves with its path. */
export async function makeKeyStore(spec: KeyStoreSpec): Promise<string> {
  const path = join(spec.dir, spec.file);
  const common = ['-keystore', path, '-storetype', spec.type, '-storepass', spec.storePassword, '-noprompt'];
  for (const entry of spec.entries) {
    if (entry.certificateOf !== undefined) {
      const cert = join(spec.dir, `${spec.file}.${entry.certificateOf}.cer`);
      await keytool(['-exportcert', '-alias', entry.certificateOf, '-file', cert, ...common]);
      await keytool(['-importcert', '-alias', entry.alias, '-file', cert, ...common]);
      continue;
    }
    await keytool([
      '-genkeypair',
      '-alias',
      entry.alias,
      '-keyalg',
      'RSA',
      '-keysize',
      String(entry.keySize ?? 2048),
      '-dname',
      `CN=${entry.alias}, O=confbus tests`,
      '-validity',
      '3650',
      '-keypass',
      entry.keyPassword ?? spec.storePassword,
      ...common,
    ]);
  }
  return path;
}

async function keytool(args: string[]): Promise<void> {
  try {
    await exec('keytool', args, { env: { ...process.env, LANG: 'C' } });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`keytool ${args[0]} failed: ${stderr || stdout || (error as Error).message}`);
  }
}
