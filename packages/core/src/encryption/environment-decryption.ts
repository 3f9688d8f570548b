/**
 * Server-side decryption of an environment, as Spring's CipherEnvironmentEncryptor does it: every value
 * starting with `{cipher}` in every property source is decrypted; a value that does not decrypt becomes
 * `invalid.<key>` = `<n/a>` (or, with prefix-invalid-properties off, the cipher text without its marker under
 * the original key); either way the entry moves to the end of its source, as Java's map re-insertion leaves it.
 * Beyond Spring, a source names the keys it decrypted (`decryptedKeys`): they were secrets in the repository, and
 * a client keeps them masked and out of its backup whatever they are called. A changed value loses its origin
 * (Spring serves a decrypted value without one).
 */
import type { PropertyValue } from '../codecs/property-value.js';
import type { Environment, PropertySource } from '../environment/environment.js';
import { ConfbusError } from '../errors/confbus-error.js';
import { originsWithout } from '../environment/property-origins.js';
import { CIPHER_MARKER, isCipherValue } from './cipher-text.js';
import type { StepRunner } from '../step-runner.js';

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
   * Runs each step of the work: decrypting is CPU work (an RSA operation per value) and looking through a large
   * environment for `{cipher}` values is long too, so the caller's time slicing decides when each step runs (the
   * server's turns are shared by all its sliced work). Default: the event loop gets a turn every 10 ms.
   */
  readonly step?: StepRunner;
}

const SLICE_MS = 10;

/** The default steps: the event loop gets a turn once this decryption has run SLICE_MS. */
function ownSlices(): StepRunner {
  let sliceStart = performance.now();
  return async (work) => {
    if (performance.now() - sliceStart > SLICE_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    }
    return work();
  };
}

/**
 * Values looked at per step when looking for `{cipher}` ones: walking every value of a large environment at once
 * (50,000 keys) held the server's event loop for tens of milliseconds.
 */
const SCAN_STEP = 2048;

/** The environment with its values decrypted (the same object when it holds no `{cipher}` value). */
export async function decryptEnvironment(
  environment: Environment,
  options: DecryptEnvironmentOptions,
): Promise<{ environment: Environment; failures: CipherFailure[] }> {
  const failures: CipherFailure[] = [];
  const step = options.step ?? ownSlices();
  const propertySources: PropertySource[] = [];
  let anyCipher = false;
  for (const source of environment.propertySources) {
    const keys = await step(() => [...source.source.keys()]);
    // Copied at the first `{cipher}` value: a source without one is served as it is.
    let decrypted: Map<string, PropertyValue> | undefined;
    const decryptedKeys: string[] = [];
    const changed = new Set<string>();
    for (let start = 0; start < keys.length; start += SCAN_STEP) {
      const ciphered = await step(() =>
        keys.slice(start, start + SCAN_STEP).filter((key) => isCipherValue(source.source.get(key))),
      );
      for (const key of ciphered) {
        await step(() => {
          const cipherText = (source.source.get(key) as string).slice(CIPHER_MARKER.length);
          decrypted ??= new Map(source.source);
          changed.add(key);
          // Removed and put back, as Spring's EnvironmentEncryptor does: a decrypted value moves to the end.
          decrypted.delete(key);
          try {
            decrypted.set(key, options.decryptValue(cipherText, environment));
            decryptedKeys.push(key);
          } catch (error) {
            failures.push({ source: source.name, key, reason: reasonOf(error) });
            if (options.prefixInvalidProperties) decrypted.set(`invalid.${key}`, INVALID_VALUE);
            else decrypted.set(key, cipherText);
          }
        });
      }
    }
    if (decrypted === undefined) {
      propertySources.push(source);
      continue;
    }
    anyCipher = true;
    propertySources.push({
      ...source,
      source: decrypted,
      ...(source.origins && changed.size > 0 ? { origins: originsWithout(source.origins, changed) } : {}),
      ...(decryptedKeys.length > 0 ? { decryptedKeys } : {}),
    });
  }
  if (!anyCipher) return { environment, failures };
  return { environment: { ...environment, propertySources }, failures };
}

function reasonOf(error: unknown): string {
  if (error instanceof ConfbusError) return error.message;
  return error instanceof Error ? `unexpected ${error.name}` : 'unexpected error';
}
