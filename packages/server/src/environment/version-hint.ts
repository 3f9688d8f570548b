/**
 * The version hint a confbus client sends when a refresh event announced a commit: "answer with at least this
 * commit". Not part of Spring's protocol (Spring servers ignore the header, Spring clients never send it).
 */
import type { IncomingHttpHeaders } from 'node:http';

export const VERSION_HINT_HEADER = 'x-config-min-version';

const COMMIT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/i;

/** The hinted commit (lower case), `undefined` without the header, `null` when it is not a full commit id. */
export function readVersionHint(headers: IncomingHttpHeaders): string | undefined | null {
  const value = headers[VERSION_HINT_HEADER];
  if (value === undefined) return undefined;
  const text = Array.isArray(value) ? value[0] : value;
  return text !== undefined && COMMIT_ID.test(text.trim()) ? text.trim().toLowerCase() : null;
}
