/** HTTP basic auth (docs/operations.md), read once: the credentials, and which routes stay open without them. */
import type { SettingSpec, Settings } from '@confbus/core';
import type { BasicCredentials } from './basic-credentials.js';

export const securitySettingSpecs: readonly SettingSpec[] = [
  {
    key: 'spring.security.user.name',
    type: 'string',
    default: 'user',
    description: 'HTTP basic auth user (only used when spring.security.user.password is set)',
  },
  {
    key: 'spring.security.user.password',
    type: 'string',
    secret: true,
    description: 'HTTP basic auth password; when set, every endpoint needs it except the open ones below',
  },
  {
    key: 'confbus.security.health-open',
    type: 'boolean',
    default: true,
    description: 'GET /actuator/health answers without credentials (for load balancers)',
  },
  {
    key: 'confbus.security.monitor-open',
    type: 'boolean',
    default: true,
    description: 'POST /monitor answers without credentials (webhooks authenticate with their own secrets)',
  },
];

export interface SecuritySettings {
  /** Undefined when no password is set (an empty one would let an empty Authorization through: not "on"). */
  readonly credentials: BasicCredentials | undefined;
  /** /actuator/health and the probes answer without credentials. */
  readonly healthOpen: boolean;
  /** POST /monitor answers without credentials (webhooks carry their own signatures). */
  readonly monitorOpen: boolean;
}

export function readSecuritySettings(settings: Settings): SecuritySettings {
  const password = settings.optionalString('spring.security.user.password') ?? '';
  return {
    credentials:
      password === '' ? undefined : { username: settings.string('spring.security.user.name'), password },
    healthOpen: settings.boolean('confbus.security.health-open'),
    monitorOpen: settings.boolean('confbus.security.monitor-open'),
  };
}
