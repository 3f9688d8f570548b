/**
 * The settings the client library understands, with Spring's key names, and their typed reading.
 * Sources (highest first): `--key=value` arguments, programmatic overrides, relaxed environment
 * variables, the YAML settings file, defaults — resolved by @confbus/core's settings resolver.
 */
import type { EncryptionSettings, SettingSpec, Settings } from '@confbus/core';
import type { TlsSources } from '@confbus/core/internal';
import {
  busSettingSpecs,
  encryptionSettingSpecs,
  readEncryptionSettings,
  settingsFileSpecs,
} from '@confbus/core';
import {
  clientBusSettingSpecs,
  readClientBusSettings,
  type ClientBusSettings,
} from './bus-member/bus-member-settings.js';
import { clientTlsSettingSpecs, readClientTlsSources } from './fetch/client-tls.js';
import { instanceSettingSpecs, readInstanceHeaders } from './fetch/instance-headers.js';
import {
  type ClientWatchSettings,
  readClientWatchSettings,
  watchSettingSpecs,
} from './watch/watch-settings.js';

export const clientSettingSpecs: readonly SettingSpec[] = [
  ...settingsFileSpecs,
  {
    key: 'spring.application.name',
    type: 'string',
    default: 'application',
    description: 'Application name sent to the config server',
  },
  {
    key: 'spring.profiles.active',
    type: 'list',
    default: ['default'],
    description: 'Active profiles (comma list), sent to the config server',
  },
  {
    key: 'spring.cloud.config.enabled',
    type: 'boolean',
    default: true,
    description:
      'false: fetch nothing (no server, no backup, no safety-net poll): the client serves local settings and defaults, for tests and local runs',
  },
  {
    key: 'spring.cloud.config.allow-override',
    type: 'boolean',
    description:
      'Read from the remote configuration only (as Spring): true lets override-none / override-system-properties give local values precedence',
  },
  {
    key: 'spring.cloud.config.override-none',
    type: 'boolean',
    description:
      'Read from the remote configuration only: with allow-override, every local source (arguments, environment, settings file) beats the remote',
  },
  {
    key: 'spring.cloud.config.override-system-properties',
    type: 'boolean',
    description:
      'Read from the remote configuration only: false (with allow-override) lets arguments, overrides and environment variables beat the remote',
  },
  {
    key: 'spring.cloud.config.uri',
    type: 'list',
    default: ['http://localhost:8888'],
    description: 'Config server URL; a comma list is tried in order. user:password@ is accepted',
  },
  {
    key: 'spring.cloud.config.name',
    type: 'string',
    description: 'Name to fetch, when it differs from spring.application.name',
  },
  {
    key: 'spring.cloud.config.label',
    type: 'list',
    description:
      'Label (branch, tag, commit) to fetch; a comma list is tried in order (default: server default)',
  },
  {
    key: 'spring.cloud.config.send-all-labels',
    type: 'boolean',
    default: false,
    aliases: ['spring.cloud.config.sendAllLabels'],
    description:
      'Send a comma list of labels in one request (/{name}/{profile}/{label1},{label2}; servers since Spring 4.2 and confbus) instead of trying each',
  },
  {
    key: 'spring.cloud.config.username',
    type: 'string',
    description: 'Basic auth user for the config server',
  },
  {
    key: 'spring.cloud.config.password',
    type: 'string',
    secret: true,
    description: 'Basic auth password for the config server',
  },
  {
    key: 'spring.cloud.config.fail-fast',
    type: 'boolean',
    default: false,
    description: 'Fail start-up (after retrying) when the config server cannot be reached',
  },
  {
    key: 'spring.cloud.config.retry.initial-interval',
    type: 'integer',
    default: 1000,
    description: 'First retry delay in ms (fail-fast only)',
  },
  {
    key: 'spring.cloud.config.retry.multiplier',
    type: 'number',
    default: 1.1,
    description: 'Factor applied to the retry delay after each attempt',
  },
  {
    key: 'spring.cloud.config.retry.max-interval',
    type: 'integer',
    default: 2000,
    description: 'Longest retry delay in ms',
  },
  {
    key: 'spring.cloud.config.retry.max-attempts',
    type: 'integer',
    default: 6,
    description: 'Fetch attempts before fail-fast gives up',
  },
  {
    key: 'spring.cloud.config.request-read-timeout',
    type: 'integer',
    default: 185000,
    description: 'Socket read timeout of a fetch in ms',
  },
  {
    key: 'spring.cloud.config.request-connect-timeout',
    type: 'integer',
    default: 10000,
    description: 'Connect timeout of a fetch in ms',
  },
  ...clientTlsSettingSpecs,
  {
    key: 'spring.config.import',
    type: 'list',
    description: "'configserver:URL' (fail-fast) or 'optional:configserver:URL'",
  },
  { key: 'server.port', type: 'integer', description: "The service's HTTP port" },
  {
    key: 'management.endpoints.web.exposure.include',
    type: 'list',
    default: ['health'],
    description: "Management endpoints that answer (comma list; '*' = all)",
  },
  {
    key: 'confbus.client.backup.file',
    type: 'string',
    description: 'Last-known-good copy of the fetched configuration (unset = no backup)',
  },
  {
    key: 'confbus.client.backup.key',
    type: 'string',
    secret: true,
    description: 'Key material (AES-256-GCM) that encrypts secret values in the backup',
  },
  {
    key: 'confbus.client.backup.plaintext-secrets',
    type: 'boolean',
    default: false,
    description: 'Write secret values unencrypted when no backup key is set',
  },
  ...encryptionSettingSpecs,
  {
    key: 'encrypt.fail-on-error',
    type: 'boolean',
    default: true,
    description:
      'A {cipher} value the client cannot decrypt fails start-up or the refresh; false makes it "" with a warning',
  },
  {
    key: 'confbus.client.poll.interval',
    type: 'integer',
    default: 300000,
    description:
      'Safety-net check in ms (±10% jitter): refresh when the server version changed without a bus event; 0 = off',
  },
  {
    key: 'confbus.client.poll.retry-interval',
    type: 'integer',
    default: 5000,
    description:
      'First retry in ms of a failed safety-net check (doubling up to the interval), so a returning server is noticed soon',
  },
  ...watchSettingSpecs,
  ...instanceSettingSpecs,
  ...busSettingSpecs,
  ...clientBusSettingSpecs,
];

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
