/**
 * Where the client's configuration comes from: the config servers named by the settings, asked in order (per
 * URI every label in order), with Spring's URL layout, Basic auth, timeouts, and — with fail-fast — Spring's
 * retry backoff. It owns the kept-alive connections it fetches on and closes them with the client.
 */
import { Agent as HttpAgent } from 'node:http';
import { type AgentOptions, Agent as HttpsAgent } from 'node:https';
import { setTimeout as delay } from 'node:timers/promises';
import {
  ROLLOUT_HEADER,
  maskUriUserInfo,
  parseJsonInOrder,
  type Environment,
  type Logger,
} from '@confbus/core';
import { isDebugEnabled, messageOf } from '@confbus/core/internal';
import type { ClientSettings } from '../client-settings.js';
import { parseEnvironment } from './environment-json.js';
import { ConfigClientError } from '../errors.js';
import { httpGet } from './http-get.js';

/** The port the refresh logic fetches through (tests hand in a fake). */
export interface EnvironmentFetcher {
  /**
   * One attempt at the current environment; rejects with the reasons of every URI and label tried.
   * `minVersion`: the version hint, the commit a refresh event announced, sent as `X-Config-Min-Version` so a
   * confbus server answers with at least that commit (Spring servers ignore the header).
   */
  fetch(minVersion?: string): Promise<Environment>;
}

/** confbus's version-hint request header (see EnvironmentFetcher.fetch). */
export const VERSION_HINT_HEADER = 'x-config-min-version';

/** A server to watch: its environment URL (the watch URL is made from it) and credentials. */
export interface WatchTarget {
  readonly shown: string;
  /** The instance's identity headers (instance-headers.ts), sent with the subscription as with a fetch. */
  readonly instanceHeaders: Readonly<Record<string, string>>;
  readonly label: string | undefined;
  readonly url: URL;
  readonly authorization: string | undefined;
}

export interface FetchRequest {
  readonly uri: string;
  readonly name: string;
  readonly profiles: readonly string[];
  readonly label: string | undefined;
  readonly username: string | undefined;
  readonly password: string | undefined;
}

/** One URI and label's GET, prepared once (see EnvironmentSource.#servers): its URL, or why there is none. */
interface RequestTarget {
  readonly shown: string;
  readonly label: string | undefined;
  readonly prepared:
    { readonly url: URL; readonly authorization: string | undefined } | { readonly error: unknown };
}

interface ServerTargets {
  /** The URI with its password masked, as log lines and errors show it. */
  readonly shown: string;
  readonly targets: readonly RequestTarget[];
}

export class EnvironmentSource implements EnvironmentFetcher {
  // Kept-alive connections: after a bus event a whole fleet re-fetches at once, and a TCP handshake per fetch
  // showed in the 200-instance profile. Idle sockets are closed after 30 s (the server keeps them 72 s).
  readonly #agents: { readonly http: HttpAgent; readonly https: HttpsAgent };
  #targets: ServerTargets[] | undefined;
  #rolloutNoticed: (() => void) | undefined;
  #rolloutSeen = false;

  /** `tls`: the https agent's key, certificate and CAs (spring.cloud.config.tls.*, see client-tls.ts). */
  constructor(
    private readonly settings: ClientSettings,
    private readonly logger: Logger,
    tls: AgentOptions = {},
  ) {
    const keepAlive = { keepAlive: true, keepAliveMsecs: 30_000, timeout: 30_000 };
    this.#agents = { http: new HttpAgent(keepAlive), https: new HttpsAgent({ ...keepAlive, ...tls }) };
  }

  /** A refresh's fetch: Spring's fetch lines are DEBUG here, the refresh logs its own line. */
  fetch(minVersion?: string): Promise<Environment> {
    return this.#fetch(minVersion, 'debug');
  }

  /** `level`: Spring's "Fetching config from server at" and "Located environment" lines are INFO at start. */
  async #fetch(minVersion: string | undefined, level: 'info' | 'debug'): Promise<Environment> {
    const { logger } = this;
    // A refresh's lines are DEBUG, usually off: built only when they will be written.
    const log = level === 'info' || isDebugEnabled(logger);
    const reasons: string[] = [];
    for (const { shown, targets } of this.#servers()) {
      if (log) logger[level]({}, `Fetching config from server at : ${shown}`);
      for (const target of targets) {
        try {
          const env = await this.#fetchOne(target, minVersion);
          if (log) {
            logger[level](
              {},
              `Located environment: name=${env.name}, profiles=[${env.profiles.join(', ')}], label=${env.label}, version=${env.version}, state=${env.state}`,
            );
          }
          return env;
        } catch (error) {
          reasons.push(messageOf(error));
        }
      }
    }
    throw new ConfigClientError('CONFBUS_CONFIG_FETCH', reasons.join('; '));
  }

  /**
   * Per URI, its masked form and the request target of each label, worked out on the first fetch: the settings
   * never change, and a URL parse, a base64 encoding and a masking regex per refresh were wasted work. A URI
   * that is not a valid http(s) URL keeps its error, thrown again by each fetch, as before.
   */
  #servers(): ServerTargets[] {
    if (this.#targets) return this.#targets;
    const { settings } = this;
    const labels =
      settings.labels.length === 0
        ? [undefined]
        : settings.sendAllLabels
          ? [settings.labels.join(',')]
          : settings.labels;
    this.#targets = settings.uris.map((uri) => {
      const shown = maskUriUserInfo(uri);
      const targets = labels.map((label): RequestTarget => {
        try {
          return { shown, label, prepared: environmentUrl({ ...settings, uri, label }) };
        } catch (error) {
          return { shown, label, prepared: { error } };
        }
      });
      return { shown, targets };
    });
    return this.#targets;
  }

  /** The fetch at start: with fail-fast, retries with exponential backoff (Spring's retry settings); otherwise one attempt. */
  async fetchWithRetry(): Promise<Environment> {
    const { failFast, retry } = this.settings;
    const attempts = failFast ? retry.maxAttempts : 1;
    let wait = retry.initialInterval;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.#fetch(undefined, 'info');
      } catch (error) {
        if (attempt >= attempts) throw error;
        this.logger.warn(
          {},
          `Config server attempt ${attempt}/${attempts} failed (${messageOf(error)}); retrying in ${wait} ms`,
        );
        await delay(wait);
        wait = Math.min(Math.round(wait * retry.multiplier), retry.maxInterval);
      }
    }
  }

  /**
   * Where the watch stream (watch/config-watcher.ts) connects: per server URI, its first label's environment
   * URL and credentials (valid ones only), with the agents that carry this client's TLS settings.
   */
  watchTargets(): { targets: WatchTarget[]; agents: { http: HttpAgent; https: HttpsAgent } } {
    const targets: WatchTarget[] = [];
    for (const { shown, targets: labels } of this.#servers()) {
      const first = labels[0];
      if (first && !('error' in first.prepared))
        targets.push({
          shown,
          label: first.label,
          instanceHeaders: this.settings.instanceHeaders,
          ...first.prepared,
        });
    }
    return { targets, agents: this.#agents };
  }

  /** Closes the kept-alive connections; a fetch after this opens new ones. */
  close(): void {
    this.#agents.http.destroy();
    this.#agents.https.destroy();
  }

  /** One GET of the environment; rejects with a ConfigClientError whose message is the reason. */
  async #fetchOne(target: RequestTarget, minVersion: string | undefined): Promise<Environment> {
    const { prepared, shown, label } = target;
    if ('error' in prepared) throw prepared.error;
    const { url, authorization } = prepared;
    const { connectTimeout, readTimeout } = this.settings;
    const headers: Record<string, string> = { accept: 'application/json', ...this.settings.instanceHeaders };
    if (authorization) headers.authorization = authorization;
    if (minVersion !== undefined) headers[VERSION_HINT_HEADER] = minVersion;
    const {
      status,
      body,
      headers: answered,
    } = await httpGet(url, {
      headers,
      connectTimeout,
      readTimeout,
      agents: this.#agents,
    }).catch((error: unknown) => {
      throw new ConfigClientError('CONFBUS_CONFIG_FETCH', `GET ${url.href} failed: ${messageOf(error)}`, {
        cause: error,
      });
    });
    if (status !== 200) {
      throw new ConfigClientError(
        'CONFBUS_CONFIG_FETCH',
        `GET ${url.href} answered ${status}${status === 401 || status === 403 ? ' (check spring.cloud.config.username/password)' : ''}${status === 404 && label !== undefined ? ` (label '${label}' not found?)` : ''}${serverMessage(body)}`,
      );
    }
    let json: unknown;
    try {
      // Integers beyond 2^53 (Spring's BigInteger) come back as bigints, to the last digit.
      json = parseJsonInOrder(body);
    } catch {
      throw new ConfigClientError('CONFBUS_CONFIG_FETCH', `Config server ${shown} did not answer JSON`);
    }
    const environment = parseEnvironment(json, shown);
    // A staged rollout holds this application: the reporter (rollout-report/) starts, once the answer is applied.
    if (answered[ROLLOUT_HEADER] !== undefined) {
      this.#rolloutSeen = true;
      queueMicrotask(() => this.#rolloutNoticed?.());
    }
    return environment;
  }

  /** Called when an answer says a staged rollout holds this application (ROLLOUT_HEADER). */
  onRolloutNoticed(listener: () => void): void {
    this.#rolloutNoticed = listener;
    // The start-up fetch answers before the client (and its reporter) exists: told now.
    if (this.#rolloutSeen) queueMicrotask(listener);
  }
}

/** The URL to fetch, and the Basic credentials to send (explicit settings win over URI userinfo). */
export function environmentUrl(req: FetchRequest): { url: URL; authorization: string | undefined } {
  let url: URL;
  try {
    url = new URL(req.uri);
  } catch {
    throw new ConfigClientError(
      'CONFBUS_CONFIG_FETCH',
      `Config server URI '${maskUriUserInfo(req.uri)}' is not a valid URL`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigClientError(
      'CONFBUS_CONFIG_FETCH',
      `Config server URI '${maskUriUserInfo(req.uri)}' must use http or https`,
    );
  }
  const userInfoUser = url.username ? decodeURIComponent(url.username) : undefined;
  const userInfoPassword = url.password ? decodeURIComponent(url.password) : undefined;
  url.username = '';
  url.password = '';
  const username = req.password !== undefined ? (req.username ?? 'user') : (userInfoUser ?? req.username);
  const password = req.password ?? userInfoPassword;
  const authorization =
    username !== undefined && password !== undefined
      ? `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`
      : undefined;

  const segments = [encodeURIComponent(req.name), encodeURIComponent(req.profiles.join(','))];
  // Spring's client writes `/` in a label as `(_)` so it stays one path segment.
  if (req.label !== undefined) segments.push(encodeURIComponent(req.label.replaceAll('/', '(_)')));
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/${segments.join('/')}`;
  url.search = '';
  url.hash = '';
  return { url, authorization };
}

/** The `message` of a Spring-style error body (`{status, error, message, path}`), so the cause reaches the logs. */
function serverMessage(body: string): string {
  try {
    const parsed = JSON.parse(body) as { message?: unknown };
    if (typeof parsed.message === 'string' && parsed.message.trim() !== '') {
      return `: ${maskUriUserInfo(parsed.message.trim().slice(0, 500))}`;
    }
  } catch {
    // Not JSON (a proxy's HTML page, say): the status alone has to do.
  }
  return '';
}
