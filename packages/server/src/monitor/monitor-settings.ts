/** POST /monitor's settings (docs/bus.md), read once: webhook secrets per Git host and what an unsigned push gets. */
import type { SettingSpec, Settings } from '@confbus/core';
import { WEBHOOK_SECRET_HOSTS, type WebhookSecrets } from './webhook-signature.js';

export const monitorSettingSpecs: readonly SettingSpec[] = [
  ...WEBHOOK_SECRET_HOSTS.map((host): SettingSpec => ({
    key: `confbus.monitor.${host}.secret`,
    type: 'string',
    secret: true,
    description: `Webhook secret for ${host} pushes to /monitor; when set, a missing or wrong signature gets 401`,
  })),
  {
    key: 'confbus.monitor.require-signature',
    type: 'boolean',
    default: false,
    description:
      'Reject /monitor requests that carry no verifiable signature (form posts, hosts without a secret)',
  },
  {
    key: 'confbus.monitor.allow-unsigned',
    type: 'boolean',
    default: false,
    description:
      'When a secret is set for any host, still accept /monitor requests that cannot be verified (form posts, simple bodies, hosts without a secret)',
  },
  {
    key: 'confbus.monitor.max-files',
    type: 'integer',
    default: 100,
    description:
      'Changed files (and guessed services) /monitor announces one by one; beyond, one refresh for every service (*)',
  },
  {
    key: 'confbus.monitor.max-impact-environments',
    type: 'integer',
    default: 2000,
    min: 1,
    max: 100_000,
    description:
      'Environments POST /monitor?impact=true compares at most (built at the commit before and after the push); beyond, counted as skipped',
  },
];

export interface MonitorSettings {
  readonly secrets: WebhookSecrets;
  /** Reject webhooks that carry no signature we can verify. */
  readonly requireSignature: boolean;
  /** With a secret configured for some host, still accept requests that cannot be verified. */
  readonly allowUnsigned: boolean;
  /** Most changed files considered one by one; beyond, the push refreshes every service. */
  readonly maxFiles: number;
  /** Most environments a push's blast radius compares (`?impact=true`). */
  readonly maxImpactEnvironments: number;
}

export function readMonitorSettings(settings: Settings): MonitorSettings {
  const secrets: WebhookSecrets = {};
  for (const host of WEBHOOK_SECRET_HOSTS) {
    const secret = settings.optionalString(`confbus.monitor.${host}.secret`);
    if (secret !== undefined) secrets[host] = secret;
  }
  return {
    secrets,
    requireSignature: settings.boolean('confbus.monitor.require-signature'),
    allowUnsigned: settings.boolean('confbus.monitor.allow-unsigned'),
    maxFiles: settings.number('confbus.monitor.max-files'),
    maxImpactEnvironments: settings.number('confbus.monitor.max-impact-environments'),
  };
}
