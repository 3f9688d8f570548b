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

const BACKEND =
  'confbus serves configuration from Git or the file system (native); a setting for another backend means a different deployment was meant.';

export const unsupportedSpringServerSettings: readonly UnsupportedSetting[] = [
  refuse(`${git}.clone-submodules`, 'files in submodules would be missing from what is served.'),
  warn(`${git}.order`, 'there is one backend; composite ordering does not apply.'),
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
  warn(
    `${server}.health`,
    'only health.enabled and health.down-health-status apply; the repository check is built in (see docs/endpoints.md).',
    true,
  ),
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
