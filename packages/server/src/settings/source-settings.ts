/**
 * Where configuration comes from besides the Git uri: the native backend, overrides, empty applications, and
 * what the plain-text endpoint does with `{cipher}` values (docs/repositories.md).
 */
import type { SettingSpec } from '@confbus/core';

const server = 'spring.cloud.config.server';

/** The embedded sample as the default repository: only when asked for (`npm start` asks). */
export const SAMPLE_REPOSITORY = 'confbus.server.sample-repository';

export const sourceSettingSpecs: readonly SettingSpec[] = [
  {
    key: SAMPLE_REPOSITORY,
    type: 'boolean',
    default: false,
    description:
      'Serve an embedded sample repository (made once under .confbus/sample-config-repo) to try confbus out; `npm start` sets it. Not with git.uri or the native profile; with none of the three the server refuses to start, as Spring does',
  },
  {
    key: 'spring.profiles.active',
    type: 'list',
    default: [],
    description: "The server's profiles: `native` serves folders (native.search-locations) instead of Git",
  },
  {
    key: 'spring.cloud.config.server.native.search-locations',
    type: 'list',
    default: ['file:./', 'file:./config/'],
    description:
      'With the native profile: folders to serve, in precedence order (later wins); file: paths, {application}/{profile}/{label} allowed',
  },
  {
    key: 'spring.cloud.config.server.native.default-label',
    type: 'string',
    default: 'master',
    description: 'With the native profile: the label (sub-folder) used when a request names none',
  },
  {
    key: 'spring.cloud.config.server.native.add-label-locations',
    type: 'boolean',
    default: true,
    description: 'With the native profile: also search <location>/<label>/ for each plain location',
  },
  {
    key: 'spring.cloud.config.server.overrides',
    type: 'string',
    isPrefix: true,
    description:
      'overrides.<key>=<value>: served first to every application as the `overrides` property source; ${...} the server cannot resolve (or written \\${...}) passed through to clients',
  },
];

export const PLAIN_TEXT_ENCRYPT = `${server}.encrypt.plain-text-encrypt`;

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
