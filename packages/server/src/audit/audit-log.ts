/**
 * The audit log's port and entries. Every action that changes something or reveals a secret records one entry:
 * who (the principal), what (action and target), from where (the remote address) and the outcome; the log adds
 * when. Entries never hold a secret value: a target names an application, a destination or a route, never a body.
 * Other modules (contract holds, rollouts) take the `AuditLog` port and call `record` for their own actions.
 */
export type AuditOutcome = 'success' | 'denied' | 'failure' | 'rate-limited';

export interface AuditEntry {
  /** Dotted, lower-case: `bus.refresh`, `monitor.push`, `decrypt`, `auth.failure`, `access.denied`, `hold.create`… */
  readonly action: string;
  /** What the action was about: an application, a bus destination, a route. */
  readonly target?: string;
  /** The user or client name; `anonymous` when no credential was presented or the server has none. */
  readonly principal: string;
  readonly remoteAddress: string;
  readonly outcome: AuditOutcome;
  /** The HTTP status answered, when the action was a request. */
  readonly status?: number;
  /** A short reason for a refusal or failure (an error code or message, never a secret). */
  readonly detail?: string;
}

/** An entry as written: with the time it was recorded (ISO-8601, UTC). */
export interface AuditRecord extends AuditEntry {
  readonly time: string;
}

export interface AuditLog {
  record(entry: AuditEntry): void;
}

/** Records nothing: the audit log is off (confbus.audit.enabled=false). */
export const noAuditLog: AuditLog = { record: () => {} };
