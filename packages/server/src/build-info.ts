/** What this server build is: its package version, read once from the package's own package.json. */
import { readFileSync } from 'node:fs';

export interface BuildInfo {
  readonly name: string;
  readonly version: string;
}

let cached: BuildInfo | undefined;

export function buildInfo(): BuildInfo {
  // Both src/ (tests through tsx) and dist/ sit one level below the package root.
  cached ??= JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as BuildInfo;
  return cached;
}
