/**
 * The Node side of @confbus/console: where the built page is, for the config server to serve. The page itself
 * (src/, built by Vite) runs in the browser and talks to the server's JSON API only.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The built page (`index.html` and `assets/`), or undefined when `npm run build` has not built it. */
export function consoleAssetsDir(): string | undefined {
  const dir = fileURLToPath(new URL('../page/', import.meta.url));
  return existsSync(`${dir}index.html`) ? dir : undefined;
}
