/**
 * Server-side decryption of the environments the server builds (Spring's EnvironmentEncryptor), applied once
 * per build: the environment service caches the result by commit with everything else, so a cached request
 * decrypts nothing. Results are also remembered per cipher text, so an `application.yml` value shared by every
 * application costs one RSA operation per process, not one per (application, profiles) and commit.
 * A value that does not decrypt gets one WARN naming its key and property source, never its cipher text.
 */
import { createHash } from 'node:crypto';
import {
  ConfbusError,
  type Environment,
  type Logger,
  type TextEncryptorLocator,
  decryptEnvironment,
  decryptText,
} from '@confbus/core';
import { LruCache } from '../support/lru-cache.js';
import { TimeSlice } from '../support/time-slice.js';

type Outcome = { readonly value: string } | { readonly error: ConfbusError };

export interface EnvironmentDecryptorOptions {
  readonly locator: TextEncryptorLocator | undefined;
  readonly prefixInvalidProperties: boolean;
  readonly logger: Logger;
}

export class EnvironmentDecryptor {
  private readonly outcomes = new LruCache<string, Outcome>(10_000);
  private readonly warned = new LruCache<string, true>(1_000);
  /** Values decrypted, and values that did not decrypt (for tests and metrics). */
  decrypted = 0;
  failed = 0;

  constructor(private readonly options: EnvironmentDecryptorOptions) {}

  async decrypt(environment: Environment): Promise<Environment> {
    const slice = new TimeSlice();
    const result = await decryptEnvironment(environment, {
      prefixInvalidProperties: this.options.prefixInvalidProperties,
      decryptValue: (cipherText, env) => this.decryptValue(cipherText, env),
      // Taking turns with every other sliced work of the server (support/time-slice.ts).
      step: (work) => slice.run(work),
    });
    for (const failure of result.failures) {
      const once = `${failure.source}\u0000${failure.key}\u0000${failure.reason}`;
      if (this.warned.get(once)) continue;
      this.warned.set(once, true);
      this.options.logger.warn(
        { key: failure.key, propertySource: failure.source, reason: failure.reason },
        this.options.prefixInvalidProperties
          ? 'Cannot decrypt a {cipher} value: serving invalid.<key> = <n/a>'
          : 'Cannot decrypt a {cipher} value: serving its cipher text',
      );
    }
    return result.environment;
  }

  private decryptValue(cipherText: string, environment: Environment): string {
    // Our locators choose keys from the text's own prefixes only, so the text alone is the cache key.
    const id = createHash('sha256').update(cipherText).digest('base64');
    let outcome = this.outcomes.get(id);
    if (outcome === undefined) {
      try {
        const scope = { name: environment.name, profiles: environment.profiles.join(',') };
        outcome = { value: decryptText(this.options.locator, scope, cipherText) };
        this.decrypted++;
      } catch (error) {
        if (!(error instanceof ConfbusError)) throw error;
        outcome = { error };
        this.failed++;
      }
      this.outcomes.set(id, outcome);
    }
    if ('error' in outcome) throw outcome.error;
    return outcome.value;
  }
}
