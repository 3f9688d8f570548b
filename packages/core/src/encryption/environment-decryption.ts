/**
 * Server-side decryption of an environment, as Spring's CipherEnvironmentEncryptor does it: every value
 * starting with `{cipher}` in every property source is decrypted; a value that does not decrypt becomes
 * `invalid.<key>` = `<n/a>` (or, with prefix-invalid-properties off, the cipher text without its marker under
 * the original key); either way the entry moves to the end of its source, as Java's map re-insertion leaves it.
 * Beyond Spring, a source names the keys it decrypted (`decryptedKeys`): they were secrets in the repository, and
 * a client keeps them masked and out of its backup whatever they are called. A changed value loses its origin
 * (Spring serves a decrypted value without one).
 */
import type { Environment, PropertySource } from '../environment/environment.js';
import { ConfbusError } from '../errors/confbus-error.js';
import { originsWithout } from '../environment/property-origins.js';
import { CIPHER_MARKER, isCipherValue } from './cipher-text.js';

export const INVALID_VALUE = '<n/a>';

export interface CipherFailure {
  /** The property source's name. */
  readonly source: string;
  readonly key: string;
  /** Why, in words that hold neither the cipher text nor key material. */
  readonly reason: string;
}

export interface DecryptEnvironmentOptions {
  readonly prefixInvalidProperties: boolean;
  /** Decrypts one value given without its `{cipher}` marker; throws when it cannot. */
  readonly decryptValue: (cipherText: string, environment: Environment) => string;
  /**
   * Called between two values: decrypting is CPU work (an RSA operation per value), so the caller's time slicing
   * hands the event loop back (the server's turns are shared by all its sliced work). Default: a turn every 10 ms.
   */
  readonly pause?: () => Promise<void>;
}

const SLICE_MS = 10;

/** The default pause: the event loop gets a turn once this decryption has run SLICE_MS. */
function ownSlices(): () => Promise<void> {
  let sliceStart = performance.now();
  return async () => {
    if (performance.now() - sliceStart <= SLICE_MS) return;
    await new Promise((resolve) => setImmediate(resolve));
    sliceStart = performance.now();
  };
}

/** The environment with its values decrypted (the same object when it holds no `{cipher}` value). */
export async function decryptEnvironment(
  environment: Environment,
  options: DecryptEnvironmentOptions,
): Promise<{ environment: Environment; failures: CipherFailure[] }> {
  const hasCipher = environment.propertySources.some((ps) => Object.values(ps.source).some(isCipherValue));
  if (!hasCipher) return { environment, failures: [] };
  const failures: CipherFailure[] = [];
  const pause = options.pause ?? ownSlices();
  const propertySources: PropertySource[] = [];
  for (const source of environment.propertySources) {
    const decrypted: Record<string, (typeof source.source)[string]> = { ...source.source };
    const decryptedKeys: string[] = [];
    const changed = new Set<string>();
    for (const [key, value] of Object.entries(source.source)) {
      if (!isCipherValue(value)) continue;
      await pause();
      const cipherText = value.slice(CIPHER_MARKER.length);
      changed.add(key);
      delete decrypted[key];
      try {
        decrypted[key] = options.decryptValue(cipherText, environment);
        decryptedKeys.push(key);
      } catch (error) {
        failures.push({ source: source.name, key, reason: reasonOf(error) });
        if (options.prefixInvalidProperties) decrypted[`invalid.${key}`] = INVALID_VALUE;
        else decrypted[key] = cipherText;
      }
    }
    propertySources.push({
      ...source,
      source: decrypted,
      ...(source.origins && changed.size > 0 ? { origins: originsWithout(source.origins, changed) } : {}),
      ...(decryptedKeys.length > 0 ? { decryptedKeys } : {}),
    });
  }
  return { environment: { ...environment, propertySources }, failures };
}

function reasonOf(error: unknown): string {
  if (error instanceof ConfbusError) return error.message;
  return error instanceof Error ? `unexpected ${error.name}` : 'unexpected error';
}
