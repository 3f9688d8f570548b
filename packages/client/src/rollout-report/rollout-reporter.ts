/**
 * Reports this instance's health to the config server while a staged rollout holds its application: started
 * when an environment answer carries ROLLOUT_HEADER, it posts `POST {server}/-/rollouts/reports` (the commit it
 * serves, its health, its error count, whether it rejected the last configuration) and does what the answer
 * says: fetch again when it names another commit for this instance (a new wave, a rollback), report again after
 * `reportIntervalMs`, or stop (0). A server without rollouts (404) stops it until the next notice.
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Logger } from '@confbus/core';
import type { ClientSettings } from '../client-settings.js';
import type { EnvironmentSource } from '../fetch/environment-source.js';
import { ApplicationHealth } from './application-health.js';

export interface RolloutReporterOptions {
  readonly source: Pick<EnvironmentSource, 'watchTargets'>;
  readonly settings: Pick<ClientSettings, 'name' | 'profiles' | 'readTimeout'>;
  readonly health: ApplicationHealth;
  /** The commit this client serves (null before any fetch). */
  readonly currentVersion: () => string | null;
  /** Why the last refresh failed (the configuration was rejected), until one succeeds. */
  readonly lastRefreshError: () => string | undefined;
  /** Fetches again and applies the answer (a rollout moved this instance). */
  readonly refresh: () => Promise<unknown>;
  readonly logger: Logger;
}

interface ReportAnswer {
  readonly version: string | null;
  readonly reportIntervalMs: number;
}

export class RolloutReporter {
  #timer: NodeJS.Timeout | undefined;
  #running = false;
  #closed = false;

  constructor(private readonly options: RolloutReporterOptions) {}

  /** An answer said a rollout holds this application: report now, unless already reporting. */
  noticed(): void {
    if (this.#running || this.#closed) return;
    this.#running = true;
    void this.#reportAndFollow();
  }

  get reporting(): boolean {
    return this.#running;
  }

  close(): void {
    this.#closed = true;
    this.#running = false;
    clearTimeout(this.#timer);
  }

  async #reportAndFollow(): Promise<void> {
    const { logger, currentVersion } = this.options;
    let next = 0;
    try {
      const answer = await this.#post();
      if (answer === undefined) return this.#stop();
      if (answer.version !== null && answer.version !== currentVersion()) {
        // Moved by the rollout: fetch now and say so in the next report, sent at once.
        await this.options.refresh().catch(() => undefined);
        next = 0;
      } else next = answer.reportIntervalMs;
      const settled = answer.version === null || answer.version === currentVersion();
      if (answer.reportIntervalMs <= 0 && settled) return this.#stop();
    } catch (error) {
      logger.debug?.(
        { reason: error instanceof Error ? error.message : String(error) },
        'Rollout report failed',
      );
      next = 2000;
    }
    if (this.#closed) return;
    this.#timer = setTimeout(() => void this.#reportAndFollow(), next);
    // A report never keeps the process alive.
    this.#timer.unref();
  }

  #stop(): void {
    this.#running = false;
  }

  /** One report; undefined when the server has no rollouts (404) or no server to report to. */
  #post(): Promise<ReportAnswer | undefined> {
    const { source, settings, health } = this.options;
    const { targets, agents } = source.watchTargets();
    const server = targets[0];
    if (!server) return Promise.resolve(undefined);
    const url = reportsUrl(server.url, server.label);
    const components = health.components();
    const rejected = this.options.lastRefreshError() !== undefined;
    const body = JSON.stringify({
      application: settings.name,
      profiles: settings.profiles,
      version: this.options.currentVersion(),
      status: ApplicationHealth.worst(components, 'UP'),
      errors: health.errors,
      rejected,
    });
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      ...server.instanceHeaders,
    };
    if (server.authorization) headers.authorization = server.authorization;
    const https = url.protocol === 'https:';
    const send = https ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const request = send(
        url,
        { method: 'POST', headers, agent: https ? agents.https : agents.http, timeout: settings.readTimeout },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            if (response.statusCode === 404 || response.statusCode === 405) return resolve(undefined);
            if (response.statusCode !== 200)
              return reject(new Error(`report answered ${response.statusCode}`));
            try {
              const answer = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Partial<ReportAnswer>;
              resolve({
                version: typeof answer.version === 'string' ? answer.version : null,
                reportIntervalMs: Number(answer.reportIntervalMs) || 0,
              });
            } catch (error) {
              reject(error as Error);
            }
          });
        },
      );
      request.on('timeout', () => request.destroy(new Error('report timed out')));
      request.on('error', reject);
      request.end(body);
    });
  }
}

/** `{base}/-/rollouts/reports` from the environment URL `{base}/{name}/{profiles}[/{label}]` (as watch-urls.ts). */
export function reportsUrl(environmentUrl: URL, label: string | undefined): URL {
  const segments = environmentUrl.pathname.split('/');
  const tail = label === undefined ? 2 : 3;
  const url = new URL(environmentUrl);
  url.pathname = `${segments.slice(0, segments.length - tail).join('/')}/-/rollouts/reports`;
  url.search = '';
  return url;
}
