/**
 * Spring Cloud Config Server (and Boot) settings confbus does not implement. Each is decided on whether
 * ignoring it could surprise a user in a way that matters: credentials, host verification, a proxy, TLS or
 * a different backend silently unused stop start-up; Spring-internal tuning is ignored with a warning.
 * A key that a settings declaration implements is never looked up here (declarations win).
 */
import {
  type ResolveOptions,
  type Settings,
  type SettingsInput,
  type UnsupportedSetting,
  resolveSettings,
} from '@confbus/core';
import { serverSettingSpecs } from './server-settings.js';

const server = 'spring.cloud.config.server';
const git = `${server}.git`;

const refuse = (key: string, reason: string, isPrefix = false): UnsupportedSetting => ({
  key,
  reason,
  effect: 'refuse',
  isPrefix,
});
const warn = (key: string, reason: string, isPrefix = false): UnsupportedSetting => ({
  key,
  reason,
  effect: 'warn',
  isPrefix,
});

const SSH =
  'SSH authentication and host verification would silently not apply; use an https:// uri with username/password, or an ssh:// uri with keys in ~/.ssh (the git CLI reads them).';
const BACKEND =
  'confbus serves configuration from Git only; a setting for another backend means a different deployment was meant.';

export const unsupportedSpringServerSettings: readonly UnsupportedSetting[] = [
  ...[
    'private-key',
    'passphrase',
    'host-key',
    'host-key-algorithm',
    'known-hosts-file',
    'strict-host-key-checking',
    'ignore-local-ssh-settings',
    'preferred-authentications',
  ].map((name) => refuse(`${git}.${name}`, SSH)),
  refuse(
    `${git}.proxy`,
    'requests would go to the remote directly; set HTTPS_PROXY for the git CLI instead.',
    true,
  ),
  refuse(`${git}.clone-submodules`, 'files in submodules would be missing from what is served.'),
  warn(`${git}.force-pull`, 'the local mirror is always reset to the remote (as force-pull: true).'),
  warn(`${git}.try-master-branch`, "default-label falls back to 'main' when 'master' is missing."),
  warn(`${git}.delete-untracked-branches`, 'branches are read from the mirror as fetched.'),
  warn(`${git}.skip-ssl-validation`, 'TLS certificates are always verified (GIT_SSL_CAINFO adds a CA).'),
  warn(`${git}.order`, 'there is one repository.'),
  warn(`${git}.refresh-on-start`, 'the first request (or clone-on-start) fetches.'),
  ...[
    'vault',
    'jdbc',
    'svn',
    'aws-s3',
    'awsparamstore',
    'awssecretsmanager',
    'credhub',
    'redis',
    'mongodb',
  ].map((backend) => refuse(`${server}.${backend}`, BACKEND, true)),
  refuse(`${server}.prefix`, 'confbus serves the configuration routes at the root; clients would get 404.'),
  refuse(
    'server.ssl',
    'confbus serves plain HTTP; terminate TLS in front of it (a proxy or load balancer).',
    true,
  ),
  refuse(
    'management.server.port',
    'actuator endpoints are served on server.port; restrict /actuator/* in front of it instead.',
  ),
  warn(
    `${server}.default-application-name`,
    "a request always names its application (Spring's default: application).",
  ),
  warn(`${server}.default-profile`, "a request always names its profiles (Spring's default: default)."),
  warn(
    `${server}.strip-document-from-yaml`,
    'a YAML document that is a single value is served as Spring does by default.',
  ),
  warn(`${server}.health`, 'the health of the repository is always reported (see docs/endpoints.md).', true),
  warn(`${server}.bootstrap`, 'confbus does not read its own configuration from the repository.'),
  warn(
    'management.endpoints',
    'the actuator endpoints confbus has are always exposed (see docs/endpoints.md).',
    true,
  ),
  warn(
    'management.endpoint',
    'the actuator endpoints confbus has are always exposed (see docs/endpoints.md).',
    true,
  ),
  warn('spring.profiles.active', 'the server has no profiles of its own; it serves from Git.'),
  warn('logging.level', 'only logging.level.root applies (one level for the whole server).', true),
  warn('management.health', 'the health of the repository and the bus are always reported.', true),
  warn('eureka', 'confbus does not register with a discovery server; clients need its URL.', true),
  warn('spring.security.user.roles', 'there is one user and it may call every endpoint.'),
  warn(
    'spring.cloud.bus.trace.enabled',
    'GET /actuator/refresh-events records every refresh event and its acks.',
  ),
  warn('spring.cloud.bus.refresh.enabled', 'the server always publishes refresh events.'),
  warn('spring.cloud.bus.env.enabled', 'the server does not publish environment-change events.'),
];

/** The server's settings from arguments, environment and settings file, Spring's unsupported keys named. */
export function resolveServerSettings(
  input: SettingsInput,
  options: Pick<ResolveOptions, 'unknownKeys'> = { unknownKeys: 'error' },
): Settings {
  return resolveSettings(serverSettingSpecs, input, {
    ...options,
    unsupported: unsupportedSpringServerSettings,
  });
}
