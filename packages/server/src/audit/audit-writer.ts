/**
 * Where audit lines go: a file (appended, written synchronously so a line recorded is a line on disk, even if the
 * process dies next), or without one the server's own log, as an entry of component `audit` (raw JSON lines on
 * standard output would interleave unlabelled with the log and a terminal's pretty output). pino's destination
 * (sonic-boom) writes the file: it is the server's logging library already, and handles partial writes.
 */
import { resolve } from 'node:path';
import type { Logger } from '@confbus/core';
import pino from 'pino';
import type { AuditRecord } from './audit-log.js';

export interface AuditSink {
  write(record: AuditRecord): void;
  close(): Promise<void>;
}

/** A sink writing one JSON object per line to `file` (relative to `cwd`), or one entry per record to `logger`. */
export function auditSinkTo(file: string | undefined, cwd: string, logger: Logger): AuditSink {
  if (file === undefined) {
    return {
      write(record) {
        logger.info({ component: 'audit', audit: record }, `audit: ${record.action} ${record.outcome}`);
      },
      async close() {},
    };
  }
  const destination = pino.destination({ dest: resolve(cwd, file), append: true, mkdir: true, sync: true });
  return {
    write(record) {
      destination.write(`${JSON.stringify(record)}\n`);
    },
    async close() {
      destination.end();
    },
  };
}
