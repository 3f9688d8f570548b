export type { AuditEntry, AuditLog, AuditOutcome, AuditRecord } from './audit-log.js';
export { noAuditLog } from './audit-log.js';
export { auditSettingSpecs, readAuditSettings, type AuditSettings } from './audit-settings.js';
export { AuditTrail } from './audit-trail.js';
export { type AuditSink, auditSinkTo } from './audit-writer.js';
export { type AuditedAction, type AuditedRequest, installAudit } from './install-audit.js';
