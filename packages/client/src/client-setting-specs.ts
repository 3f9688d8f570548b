/**
 * The settings the client library understands, with Spring's key names, defaults and descriptions: what the
 * settings resolver accepts and what docs/settings.md and `confbus help` list. client-settings.ts reads them into
 * a typed ClientSettings; the declarations live apart because they are data that grows with every feature, while
 * the reader is logic.
 */
import type { SettingSpec } from '@confbus/core';
import { busSettingSpecs, encryptionSettingSpecs, settingsFileSpecs } from '@confbus/core';
import { clientBusSettingSpecs } from './bus-member/bus-member-settings.js';
import { clientTlsSettingSpecs } from './fetch/client-tls.js';
import { instanceSettingSpecs } from './fetch/instance-headers.js';
import { watchSettingSpecs } from './watch/watch-settings.js';

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
