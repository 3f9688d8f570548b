/** This package's version, for the start-up line and `confbus_build_info`. */
import { readFileSync } from 'node:fs';

let version: string | undefined;

export function clientVersion(): string {
  // Both src/ (tests through tsx) and dist/ sit one level below the package root.
  version ??= (
    JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
  ).version;
  return version;
}
