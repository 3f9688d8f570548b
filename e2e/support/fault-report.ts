/**
 * Rows of the fault table printed by `npm run test:faults`: each fault test records what it injected, how many
 * clients took part, the outcome and the time to converge. The runner (scripts/run-tests.mjs) sets
 * FAULT_REPORT_FILE to a file and prints the table after the run.
 */
import { appendFileSync } from 'node:fs';

export interface FaultRow {
  fault: string;
  clients: number;
  outcome: string;
  /** Milliseconds from the end of the fault to every client converging, when that applies. */
  convergeMs?: number;
}

export function recordFault(row: FaultRow): void {
  const file = process.env.FAULT_REPORT_FILE;
  if (file) appendFileSync(file, `${JSON.stringify(row)}\n`);
}
