/**
 * The client's settings read once into a typed ClientSettings (the keys are declared in client-setting-specs.ts).
 * Sources (highest first): `--key=value` arguments, programmatic overrides, relaxed environment
 * variables, the YAML settings file, defaults — resolved by @confbus/core's settings resolver.
 */
import type { EncryptionSettings, Settings } from '@confbus/core';
import type { TlsSources } from '@confbus/core/internal';
import { readEncryptionSettings } from '@confbus/core';
import { readClientBusSettings, type ClientBusSettings } from './bus-member/bus-member-settings.js';
import { readClientTlsSources } from './fetch/client-tls.js';
import { readInstanceHeaders } from './fetch/instance-headers.js';
import { type ClientWatchSettings, readClientWatchSettings } from './watch/watch-settings.js';

export interface RetryPolicy {
  readonly initialInterval: number;
  readonly multiplier: number;
  readonly maxInterval: number;
  readonly maxAttempts: number;
}

/** What the client needs from its settings, already typed and defaulted. */
export interface ClientSettings {
  /** spring.cloud.config.enabled: false = no fetching at all. */
  readonly enabled: boolean;
  readonly applicationName: string;
  readonly name: string;
  readonly profiles: readonly string[];
  readonly uris: readonly string[];
  readonly labels: readonly string[];
  /** spring.cloud.config.send-all-labels: the labels in one request, joined by commas. */
  readonly sendAllLabels?: boolean;
  readonly username: string | undefined;
  readonly password: string | undefined;
  readonly failFast: boolean;
  readonly retry: RetryPolicy;
  readonly readTimeout: number;
  readonly connectTimeout: number;
  /** spring.cloud.config.tls.*: key and trust stores for https:// URIs; undefined when not enabled. */
  readonly tls: TlsSources | undefined;
  readonly exposure: readonly string[];
  readonly backup: {
    readonly file: string | undefined;
    readonly key: string | undefined;
    readonly plaintextSecrets: boolean;
  };
  readonly bus: ClientBusSettings;
  /** The client's own key, for `{cipher}` values the server passes through. */
  readonly encryption: EncryptionSettings;
  readonly decryptFailOnError: boolean;
  readonly poll: { readonly interval: number; readonly retryInterval: number };
  readonly watch: ClientWatchSettings;
  /** The instance's id and tags as request headers, sent with every fetch and watch (fetch/instance-headers.ts). */
  readonly instanceHeaders: Readonly<Record<string, string>>;
}

const CONFIG_SERVER_IMPORT = /^(optional:)?configserver:(.*)$/;

export function readClientSettings(settings: Settings): ClientSettings {
  const { uris, failFast, retry } = withConfigServerImports(settings, {
    uris: settings.list('spring.cloud.config.uri'),
    failFast: settings.boolean('spring.cloud.config.fail-fast'),
    retry: {
      initialInterval: settings.number('spring.cloud.config.retry.initial-interval'),
      multiplier: settings.number('spring.cloud.config.retry.multiplier'),
      maxInterval: settings.number('spring.cloud.config.retry.max-interval'),
      maxAttempts: settings.number('spring.cloud.config.retry.max-attempts'),
    },
  });
  const applicationName = settings.string('spring.application.name');
  const profiles = settings.list('spring.profiles.active');
  return {
    enabled: settings.boolean('spring.cloud.config.enabled'),
    applicationName,
    name: settings.optionalString('spring.cloud.config.name') ?? applicationName,
    profiles: profiles.length > 0 ? profiles : ['default'],
    uris,
    labels: settings.list('spring.cloud.config.label'),
    sendAllLabels: settings.boolean('spring.cloud.config.send-all-labels'),
    username: settings.optionalString('spring.cloud.config.username'),
    password: settings.optionalString('spring.cloud.config.password'),
    failFast,
    retry: { ...retry, maxAttempts: Math.max(1, Math.floor(retry.maxAttempts)) },
    readTimeout: settings.number('spring.cloud.config.request-read-timeout'),
    connectTimeout: settings.number('spring.cloud.config.request-connect-timeout'),
    tls: readClientTlsSources(settings),
    exposure: settings.list('management.endpoints.web.exposure.include'),
    backup: {
      file: settings.optionalString('confbus.client.backup.file'),
      key: settings.optionalString('confbus.client.backup.key'),
      plaintextSecrets: settings.boolean('confbus.client.backup.plaintext-secrets'),
    },
    bus: readClientBusSettings(settings),
    encryption: readEncryptionSettings(settings),
    decryptFailOnError: settings.boolean('encrypt.fail-on-error'),
    poll: {
      // Nothing to poll when fetching is disabled.
      interval: settings.boolean('spring.cloud.config.enabled')
        ? Math.max(0, settings.number('confbus.client.poll.interval'))
        : 0,
      retryInterval: Math.max(100, settings.number('confbus.client.poll.retry-interval')),
    },
    watch: readClientWatchSettings(settings),
    instanceHeaders: readInstanceHeaders(settings),
  };
}

interface ServerConnection {
  uris: string[];
  failFast: boolean;
  retry: RetryPolicy;
}

/**
 * The server's uris, fail-fast and retry with Boot 2.4+'s `spring.config.import=configserver:URL` applied: an
 * import replaces the uris, and without `optional:` start-up must fail.
 */
function withConfigServerImports(settings: Settings, configured: ServerConnection): ServerConnection {
  let { uris, failFast } = configured;
  const retry = { ...configured.retry };
  for (const entry of settings.list('spring.config.import')) {
    const match = CONFIG_SERVER_IMPORT.exec(entry);
    if (!match) continue;
    if (!match[1]) failFast = true;
    const url = match[2]?.trim();
    if (!url) continue;
    // Spring also takes retry settings as URL parameters: `configserver:http://h?fail-fast=true&max-attempts=10`.
    const query = url.indexOf('?');
    if (query !== -1) {
      const params = new URLSearchParams(url.slice(query + 1));
      if (params.get('fail-fast') === 'true') failFast = true;
      const numeric = (name: string, fallback: number) => {
        const value = Number(params.get(name) ?? Number.NaN);
        return Number.isFinite(value) ? value : fallback;
      };
      retry.initialInterval = numeric('initial-interval', retry.initialInterval);
      retry.multiplier = numeric('multiplier', retry.multiplier);
      retry.maxInterval = numeric('max-interval', retry.maxInterval);
      retry.maxAttempts = numeric('max-attempts', retry.maxAttempts);
    }
    uris = (query === -1 ? url : url.slice(0, query)).split(',').map((part) => part.trim());
  }
  return { uris, failFast, retry };
}
