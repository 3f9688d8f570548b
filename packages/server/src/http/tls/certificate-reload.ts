/**
 * Reloads the HTTPS key material when its files change, as Spring Boot's SSL bundles do (reload-on-update): the
 * folders holding the files are watched (editors and Kubernetes replace files by rename or swap a symbolic link,
 * which a watch on the file itself misses), and once nothing has changed for the quiet period the material is
 * read again and handed to the server for new connections. New material that cannot be read, or whose key does
 * not match its certificate, is logged and the material in use stays: a half-copied file never takes HTTPS down.
 */
import { type FSWatcher, watch } from 'node:fs';
import { dirname } from 'node:path';
import { type SecureContextOptions, createSecureContext } from 'node:tls';
import type { Logger } from '@confbus/core';
import { messageOf } from '@confbus/core/internal';

/** The part of a node:https / node:tls server a reload needs. */
export interface SecureContextTarget {
  setSecureContext(options: SecureContextOptions): void;
}

export interface CertificateReloadOptions {
  readonly files: readonly string[];
  /** The material the server was started with. */
  readonly current: SecureContextOptions;
  readonly quietPeriodMs: number;
  readonly logger: Logger;
  /** Reads the material again; `commit` records it as the one in use once the server has taken it. */
  readonly load: () => Promise<{ options: SecureContextOptions; commit: () => void }>;
  readonly target: SecureContextTarget;
}

export class CertificateReload {
  readonly #watchers: FSWatcher[] = [];
  #timer: NodeJS.Timeout | undefined;
  #closed = false;
  /** What the server holds, to skip a reload when a change elsewhere in the folder left the files as they were. */
  #current: string | undefined;

  constructor(private readonly options: CertificateReloadOptions) {
    this.#current = fingerprintOf(options.current);
    for (const folder of new Set(options.files.map((file) => dirname(file)))) {
      try {
        const watcher = watch(folder, { persistent: false }, () => this.#changed());
        watcher.on('error', (error) =>
          options.logger.warn({ folder, err: messageOf(error) }, 'Cannot watch the TLS certificate folder'),
        );
        this.#watchers.push(watcher);
      } catch (error) {
        options.logger.warn({ folder, err: messageOf(error) }, 'Cannot watch the TLS certificate folder');
      }
    }
  }

  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
    for (const watcher of this.#watchers) watcher.close();
  }

  /** Every change restarts the quiet period: the reload reads the files once they have settled. */
  #changed(): void {
    if (this.#closed) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.#reload(), this.options.quietPeriodMs);
    this.#timer.unref();
  }

  async #reload(): Promise<void> {
    const { logger, files } = this.options;
    try {
      const { options, commit } = await this.options.load();
      const fingerprint = fingerprintOf(options);
      if (this.#closed || fingerprint === this.#current) return;
      // Built first: a key that does not match its certificate throws here, before the server is touched.
      createSecureContext(options);
      this.options.target.setSecureContext(options);
      this.#current = fingerprint;
      commit();
      logger.info({ files }, 'TLS certificates reloaded; new connections use them');
    } catch (error) {
      logger.error(
        { files, err: messageOf(error) },
        'TLS certificate reload failed; the certificates in use stay until the files are fixed',
      );
    }
  }
}

function fingerprintOf(options: SecureContextOptions): string {
  return JSON.stringify([options.key, options.cert, options.ca]);
}
