/**
 * The AuditLog the server records to: stamps each entry with the time, writes it to the sink and keeps the most
 * recent ones for the console. Entries are written whole or not at all; a failing sink is reported once through
 * the server log and never fails the action it records.
 */
import type { Logger } from '@confbus/core';
import type { Clock } from '../clock.js';
import type { AuditEntry, AuditLog, AuditRecord } from './audit-log.js';
import type { AuditSink } from './audit-writer.js';

export class AuditTrail implements AuditLog {
  private readonly recent: AuditRecord[] = [];
  private failed = false;

  constructor(
    private readonly sink: AuditSink,
    private readonly clock: Clock,
    private readonly keep: number,
    private readonly logger: Logger,
  ) {}

  record(entry: AuditEntry): void {
    const record: AuditRecord = { time: new Date(this.clock.now()).toISOString(), ...entry };
    try {
      this.sink.write(record);
    } catch (error) {
      if (!this.failed) this.logger.error({ err: error }, 'The audit log cannot be written');
      this.failed = true;
    }
    if (this.keep === 0) return;
    this.recent.push(record);
    if (this.recent.length > this.keep) this.recent.shift();
  }

  /** The newest entries first, at most `limit`. */
  latest(limit: number): AuditRecord[] {
    return this.recent.slice(-limit).reverse();
  }

  close(): Promise<void> {
    return this.sink.close();
  }
}
