/**
 * Where Git mirrors live when `spring.cloud.config.server.git.basedir` is not set. Mirrors are a cache — each can be
 * fetched again from its remote — so they go where the platform keeps caches, never into the working directory (a
 * container's may be read-only, a checkout's would fill with mirrors, and `npx` or a supervisor may start the
 * server anywhere). In order:
 *
 * 1. `$CACHE_DIRECTORY/mirrors`: what systemd's `CacheDirectory=confbus` provides (`/var/cache/confbus`);
 * 2. `$XDG_CACHE_HOME/confbus/mirrors` (XDG Base Directory), else `~/.cache/confbus/mirrors`;
 * 3. `<os.tmpdir()>/confbus-<uid>/mirrors` when there is no usable home (a container user without one).
 *
 * Spring uses a new temporary folder per start; reusing the same folder lets a restart serve at once, with a
 * cheap fetch instead of a full clone. Kubernetes manifests set basedir to a volume explicitly (docs/deploy.md).
 */
import { accessSync, constants } from 'node:fs';
import { homedir, tmpdir, userInfo } from 'node:os';
import { isAbsolute, join } from 'node:path';

export function defaultMirrorsHome(env: NodeJS.ProcessEnv = process.env): string {
  const systemd = env.CACHE_DIRECTORY?.split(':')[0];
  if (systemd && isAbsolute(systemd)) return join(systemd, 'mirrors');
  const xdg = env.XDG_CACHE_HOME;
  if (xdg && isAbsolute(xdg)) return join(xdg, 'confbus', 'mirrors');
  const home = homedir();
  if (home && home !== '/' && writable(home)) return join(home, '.cache', 'confbus', 'mirrors');
  return join(tmpdir(), `confbus-${uid()}`, 'mirrors');
}

function writable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

function uid(): string {
  try {
    return String(userInfo().uid);
  } catch {
    return 'user';
  }
}
