/** The audit log (docs/security.md#audit-log), read once: on or off, where its JSON lines go, what the console keeps. */
import type { SettingSpec, Settings } from '@confbus/core';

export const auditSettingSpecs: readonly SettingSpec[] = [
  {
    key: 'confbus.audit.enabled',
    type: 'boolean',
    default: true,
    description:
      'Write one JSON line per action that changes something or reveals a secret (refreshes, webhooks, /decrypt, console actions, auth failures)',
  },
  {
    key: 'confbus.audit.file',
    type: 'string',
    description:
      'The audit log file (JSON lines, appended, directories created); unset: the server log, as entries of component audit',
  },
  {
    key: 'confbus.audit.recent-entries',
    type: 'integer',
    default: 200,
    min: 0,
    max: 10_000,
    description: 'Audit entries kept in memory for the console (GET /-/console/api/audit)',
  },
];

export interface AuditSettings {
  readonly enabled: boolean;
  /** Undefined: the server's log. */
  readonly file: string | undefined;
  readonly recentEntries: number;
}

export function readAuditSettings(settings: Settings): AuditSettings {
  return {
    enabled: settings.boolean('confbus.audit.enabled'),
    file: settings.optionalString('confbus.audit.file'),
    recentEntries: settings.number('confbus.audit.recent-entries'),
  };
}
