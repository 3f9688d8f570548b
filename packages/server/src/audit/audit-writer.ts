/**
 * Where audit lines go: a file (appended, written synchronously so a line recorded is a line on disk, even if the
 * process dies next) or standard output. pino's destination (sonic-boom) does the writing: it is the server's
 * logging library already, and handles reopening and partial writes.
 */
import { resolve } from 'node:path';
import pino from 'pino';
import type { AuditRecord } from './audit-log.js';

export interface AuditSink {
  write(record: AuditRecord): void;
  close(): Promise<void>;
}

/** A sink writing one JSON object per line to `file` (relative to `cwd`), or to standard output. */
export function auditSinkTo(file: string | undefined, cwd: string): AuditSink {
  const destination =
    file === undefined
      ? pino.destination({ dest: 1, sync: true })
      : pino.destination({ dest: resolve(cwd, file), append: true, mkdir: true, sync: true });
  return {
    write(record) {
      destination.write(`${JSON.stringify(record)}\n`);
    },
    async close() {
      // Standard output stays open for the rest of the process.
      if (file !== undefined) destination.end();
    },
  };
}
