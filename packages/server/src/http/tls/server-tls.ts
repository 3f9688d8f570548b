/**
 * The HTTPS listener's TLS: the options the node:https server is made with (key material from the stores or PEM
 * files `server.ssl.*` name, client certificates, versions, ciphers), and the reload of that material when its
 * files change (certificate-reload.ts). Read once at start: a file that cannot be read or opened stops the start
 * with an error naming the setting.
 */
import { readFile } from 'node:fs/promises';
import type { SecureContextOptions, TlsOptions } from 'node:tls';
import type { Logger } from '@confbus/core';
import { type TlsMaterial, loadTlsMaterial } from '@confbus/core/internal';
import { CertificateReload, type SecureContextTarget } from './certificate-reload.js';
import { protocolOptions } from './protocol-options.js';
import type { ServerTlsSettings } from './tls-settings.js';

export class ServerTls {
  private constructor(
    private readonly settings: ServerTlsSettings,
    private readonly cwd: string,
    private readonly logger: Logger,
    /** What the server was started with; replaced by each reload. */
    private material: TlsMaterial,
  ) {}

  static async load(settings: ServerTlsSettings, cwd: string, logger: Logger): Promise<ServerTls> {
    // Checked first: a bad version or cipher name is reported before any file is read.
    protocolOptions(settings.protocols, settings.ciphers);
    const material = await loadTlsMaterial(settings.sources, { read: readFile, cwd });
    return new ServerTls(settings, cwd, logger, material);
  }

  /** The files the key material came from (never served; watched for reloads). */
  get files(): readonly string[] {
    return this.material.files;
  }

  /** node:https server options: the key material, client certificates as client-auth says, versions and ciphers. */
  serverOptions(): TlsOptions {
    const { clientAuth } = this.settings;
    return {
      ...secureContextOptions(this.material),
      ...protocolOptions(this.settings.protocols, this.settings.ciphers),
      // want: asked for and verified when sent, but a request without one is still served; need: the
      // handshake fails without a certificate the trusted CAs signed (Spring Boot's client-auth).
      requestCert: clientAuth !== 'none',
      rejectUnauthorized: clientAuth === 'need',
    };
  }

  /**
   * Watches the key material's files and hands new material to `server` once they stop changing; returns the
   * stop function. A quiet period of 0 turns reloading off.
   */
  watch(server: SecureContextTarget): () => void {
    if (this.settings.reloadQuietPeriodMs <= 0) return () => undefined;
    const reload = new CertificateReload({
      files: this.material.files,
      current: secureContextOptions(this.material),
      quietPeriodMs: this.settings.reloadQuietPeriodMs,
      logger: this.logger,
      load: async () => {
        const material = await loadTlsMaterial(this.settings.sources, { read: readFile, cwd: this.cwd });
        return {
          options: {
            ...secureContextOptions(material),
            ...protocolOptions(this.settings.protocols, this.settings.ciphers),
          },
          commit: () => {
            this.material = material;
          },
        };
      },
      target: server,
    });
    return () => reload.close();
  }
}

function secureContextOptions(material: TlsMaterial): SecureContextOptions {
  return {
    ...(material.key === undefined ? {} : { key: material.key }),
    ...(material.cert === undefined ? {} : { cert: material.cert }),
    ...(material.ca === undefined ? {} : { ca: [...material.ca] }),
  };
}
