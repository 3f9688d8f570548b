/** Memory and size limits of the server (confbus settings; docs/operations.md). */
import type { SettingSpec } from '@confbus/core';

export const cacheAndFileLimitSettingSpecs: readonly SettingSpec[] = [
  {
    key: 'confbus.server.cache.max-entries',
    type: 'integer',
    default: 5000,
    description:
      'Resolved environments kept in memory, keyed by (commit, application, profiles, label); one cache for all repositories',
  },
  {
    key: 'confbus.server.cache.max-bytes',
    type: 'integer',
    default: 268435456,
    description:
      'Estimated memory for resolved environments with the serialisations they keep, and as much again for parsed files, all repositories together (least recently used go first)',
  },
  {
    key: 'confbus.server.max-file-bytes',
    type: 'integer',
    default: 1048576,
    description: 'Largest configuration file served; a larger one answers 500 CONFBUS_CONFIG_LIMIT naming it',
  },
  {
    key: 'confbus.server.max-file-documents',
    type: 'integer',
    default: 1000,
    description:
      'Most documents (`---` sections) one configuration file may hold; more answer 500 CONFBUS_CONFIG_LIMIT naming the file',
  },
  {
    key: 'confbus.server.max-environment-bytes',
    type: 'integer',
    default: 8388608,
    description:
      'Largest summed size of the files one environment is built from (500 CONFBUS_CONFIG_LIMIT beyond)',
  },
  {
    key: 'confbus.server.max-concurrent-builds',
    type: 'integer',
    default: 8,
    min: 1,
    description:
      'Environments not in the cache built at once, across repositories (requests for the same one share a build)',
  },
  {
    key: 'confbus.server.max-queued-builds',
    type: 'integer',
    default: 1000,
    min: 0,
    description:
      'Environment builds that may wait for one of those; beyond, a request answers 503 CONFBUS_SERVER_BUSY',
  },
  {
    key: 'confbus.server.max-profiles',
    type: 'integer',
    default: 32,
    description: 'Most profiles one request may name',
  },
  {
    key: 'spring.profiles.validate',
    type: 'boolean',
    default: true,
    description:
      "Requested profiles follow Spring's rules (letters, digits and -_.+@, starting and ending with a letter or digit, no empty entry in a list); false lifts them, but a profile still never holds a control character, '/', '\\' or '..'",
  },
];

export const requestLimitSettingSpecs: readonly SettingSpec[] = [
  {
    key: 'confbus.server.max-url-length',
    type: 'integer',
    default: 2048,
    description: 'Longest request URL accepted (414 beyond)',
  },
  {
    key: 'confbus.server.max-body-bytes',
    type: 'integer',
    default: 1048576,
    description: 'Largest request body accepted, e.g. a webhook (413 beyond)',
  },
  {
    key: 'confbus.server.max-header-bytes',
    type: 'integer',
    default: 16384,
    description: 'Largest request line plus headers accepted, in bytes (431 beyond)',
  },
  {
    key: 'confbus.server.refresh-events.max-events',
    type: 'integer',
    default: 200,
    description: 'Published refresh events remembered with their acks (GET /actuator/refresh-events)',
  },
  {
    key: 'confbus.server.refresh-events.max-acks-per-event',
    type: 'integer',
    default: 10000,
    description: 'Acks (one per service) recorded per refresh event; more are counted, not kept',
  },
  {
    key: 'confbus.server.refresh-events.max-bytes',
    type: 'integer',
    default: 16777216,
    description: 'Memory for recorded acks (estimated bytes); the oldest events are forgotten first',
  },
];
