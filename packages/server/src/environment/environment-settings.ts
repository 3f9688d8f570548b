/**
 * How environments are built and served, read once: file and memory bounds, the build queue, the server's
 * overrides, and Spring's rendering switches (accept-empty, strip-document-from-yaml, the plain-text endpoint's).
 */
import type { SettingSpec, Settings } from '@confbus/core';

const server = 'spring.cloud.config.server';
const OVERRIDES = `${server}.overrides`;
const PLAIN_TEXT_ENCRYPT = `${server}.encrypt.plain-text-encrypt`;

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

export const overrideSettingSpecs: readonly SettingSpec[] = [
  {
    key: 'spring.cloud.config.server.overrides',
    type: 'string',
    isPrefix: true,
    description:
      'overrides.<key>=<value>: served first to every application as the `overrides` property source; ${...} the server cannot resolve (or written \\${...}) passed through to clients',
  },
];

export const emptyAndResourceSettingSpecs: readonly SettingSpec[] = [
  {
    key: 'spring.cloud.config.server.accept-empty',
    type: 'boolean',
    default: true,
    description:
      "When false, an application with no configuration files answers 404, and health reports down-health-status while Spring's health query (application app, profile default) finds none",
  },
  {
    key: `${server}.strip-document-from-yaml`,
    type: 'boolean',
    default: true,
    description:
      'A rendered .yml whose only key is `document` (a repository file holding a list or a scalar) is written as that value alone; false keeps `document:`',
  },
  {
    key: `${server}.default-application-name`,
    type: 'string',
    default: 'application',
    description:
      'The application /encrypt, /decrypt and /key name to the key locator when the URL names none (as Spring)',
  },
  {
    key: `${server}.default-profile`,
    type: 'string',
    default: 'default',
    description:
      'The profiles /encrypt, /decrypt and /key name to the key locator when the URL names none (as Spring)',
  },
  {
    key: PLAIN_TEXT_ENCRYPT,
    type: 'boolean',
    default: false,
    aliases: [`${server}.encrypt.plainTextEncrypt`],
    description:
      'Decrypt {cipher} values in .yml, .yaml, .properties and .json files served by the plain-text endpoint (needs a key and encrypt.enabled)',
  },
  {
    key: `${server}.reverse-location-order`,
    type: 'boolean',
    default: false,
    description:
      'Plain-text endpoint: look in the search locations last first (a search path before the root; for native, label folders first), as Spring 4.0.2+ does with it',
  },
];

export interface EnvironmentSettings {
  readonly files: { readonly maxFileBytes: number; readonly maxFileDocuments: number };
  readonly cache: { readonly maxEntries: number; readonly maxBytes: number };
  readonly builds: { readonly maxConcurrent: number; readonly maxQueued: number };
  readonly maxEnvironmentBytes: number;
  readonly maxProfiles: number;
  readonly validateProfiles: boolean;
  readonly acceptEmpty: boolean;
  readonly stripDocumentFromYaml: boolean;
  readonly reverseLocationOrder: boolean;
  readonly plainTextEncrypt: boolean;
  /** What /encrypt, /decrypt and /key name to the key locator when the URL names no application or profile. */
  readonly defaultScope: { readonly name: string; readonly profiles: string };
  /** `overrides.<key>` as written (keys keep their spelling), served first to every application. */
  readonly overrides: Readonly<Record<string, string>>;
  /** A request for several labels still answers when one of them fails. */
  readonly continueOnMultipleLabelFailure: boolean;
}

export function readEnvironmentSettings(settings: Settings): EnvironmentSettings {
  return {
    files: {
      maxFileBytes: settings.number('confbus.server.max-file-bytes'),
      maxFileDocuments: settings.number('confbus.server.max-file-documents'),
    },
    cache: {
      maxEntries: settings.number('confbus.server.cache.max-entries'),
      maxBytes: settings.number('confbus.server.cache.max-bytes'),
    },
    builds: {
      maxConcurrent: settings.number('confbus.server.max-concurrent-builds'),
      maxQueued: settings.number('confbus.server.max-queued-builds'),
    },
    maxEnvironmentBytes: settings.number('confbus.server.max-environment-bytes'),
    maxProfiles: settings.number('confbus.server.max-profiles'),
    validateProfiles: settings.boolean('spring.profiles.validate'),
    acceptEmpty: settings.boolean(`${server}.accept-empty`),
    stripDocumentFromYaml: settings.boolean(`${server}.strip-document-from-yaml`),
    reverseLocationOrder: settings.boolean(`${server}.reverse-location-order`),
    plainTextEncrypt: settings.boolean(PLAIN_TEXT_ENCRYPT),
    defaultScope: {
      name: settings.string(`${server}.default-application-name`),
      profiles: settings.string(`${server}.default-profile`),
    },
    overrides: readOverrides(settings),
    continueOnMultipleLabelFailure: settings.boolean(`${server}.git.continue-on-multiple-label-failure`),
  };
}

/** The overrides in the order they were configured, keys as written. Empty when none are set. */
export function readOverrides(settings: Settings): Record<string, string> {
  const overrides: Record<string, string> = {};
  for (const key of settings.keysUnder(`${OVERRIDES}.`)) {
    const name = settings.spellingOf(key).slice(OVERRIDES.length + 1);
    const value = settings.get(key);
    overrides[name] = unescape(Array.isArray(value) ? value.join(',') : String(value ?? ''));
  }
  return overrides;
}

/** Spring's rule: `\${` becomes `${`; otherwise `\{` becomes `{`. */
function unescape(value: string): string {
  if (value.includes('\\${')) return value.split('\\${').join('${');
  if (value.includes('\\{')) return value.split('\\{').join('{');
  return value;
}
