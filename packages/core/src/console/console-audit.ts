/**
 * The console's audit view in its JSON API (`GET /audit`): the server's audit log as kept in memory. Types only,
 * as console-api.ts.
 */

/** One line of the server's audit log (`GET /audit`): who did what, when, from where, with what outcome. */
export interface ConsoleAuditEntry {
  time: string;
  action: string;
  target?: string;
  principal: string;
  remoteAddress: string;
  outcome: 'success' | 'denied' | 'failure' | 'rate-limited';
  status?: number;
  detail?: string;
}

/** `GET /audit?limit`: the most recent audit entries kept in memory, newest first. */
export interface ConsoleAuditLog {
  /** False when the audit log is off (confbus.audit.enabled=false). */
  enabled: boolean;
  entries: ConsoleAuditEntry[];
}
