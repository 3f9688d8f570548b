/**
 * The files the server itself was configured from — its settings file (`application.yml`, or the
 * `spring.config.location` it read), the key store behind `encrypt.key-store.location` and its HTTPS key material
 * (`server.ssl.*`) — which no backend may
 * ever serve: with the native backend's default search locations (`file:./`) a client asking for
 * `/anything/default` got the server's own `application.yml`, `encrypt.key` and passwords included (issue 23).
 * Spring drops the property sources its own environment holds (NativeEnvironmentRepository.clean); confbus decides
 * once at start which files are the server's and each backend leaves them out where it lists and reads files:
 *
 * - a file is the server's when it is at one of these real paths (an editor that saves by rename makes a new file
 *   at the same path: still the server's), or is the same file (device and inode: a hard link, a path through a
 *   symbolic link);
 * - the native backend skips them in its walk and refuses to read them (native-repository.ts);
 * - a Git repository on this machine whose work tree holds one (the server started in its own configuration
 *   checkout) never serves that path from any commit (commit-files.ts): the committed versions of the file are
 *   the server's settings too. A remote repository cannot hold the server's files in a way confbus could know.
 */
import { realpath, stat } from 'node:fs/promises';
import { relative, resolve, sep } from 'node:path';
import type { Settings } from '@confbus/core';
import { keyStorePath } from '@confbus/core/internal';

/** Settings naming a file the server reads its secrets from (besides the settings files themselves). */
const FILE_SETTINGS = [
  'encrypt.key-store.location',
  'server.ssl.key-store',
  'server.ssl.certificate',
  'server.ssl.certificate-private-key',
  'server.ssl.trust-store',
  'server.ssl.trust-certificate',
] as const;

interface FileIdentity {
  readonly dev: number;
  readonly ino: number;
}

export class ServerOwnFiles {
  private constructor(
    /** Real paths of the server's files (those that exist). */
    readonly paths: readonly string[],
    private readonly identities: ReadonlySet<string>,
  ) {}

  static readonly none = new ServerOwnFiles([], new Set());

  /** The server's files named by `settings` (relative ones against `cwd`); missing ones are left out. */
  static async of(settings: Settings, cwd: string): Promise<ServerOwnFiles> {
    const named = [...settings.files];
    for (const key of FILE_SETTINGS) {
      const location = settings.optionalString(key)?.trim();
      if (location === undefined) continue;
      try {
        named.push(keyStorePath(location, cwd));
      } catch {
        // Not a file path (classpath:): loading the key store reports it.
      }
    }
    const paths: string[] = [];
    const identities = new Set<string>();
    for (const path of named) {
      const real = await realpath(resolve(cwd, path)).catch(() => undefined);
      const info = real === undefined ? undefined : await stat(real).catch(() => undefined);
      if (real === undefined || info === undefined || paths.includes(real)) continue;
      paths.push(real);
      identities.add(identityOf(info));
    }
    return new ServerOwnFiles(paths, identities);
  }

  /** Whether the file at `realPath` (reached without following links), with this `stat`, is the server's. */
  isOwn(realPath: string, info: FileIdentity): boolean {
    return this.identities.has(identityOf(info)) || this.paths.includes(realPath);
  }

  /**
   * The server's files inside `realDirectory` (a real path: git's `--show-toplevel`), as `/`-separated paths
   * relative to it (a Git work tree's). Reads no file: the directory may be a hung upstream's.
   */
  inside(realDirectory: string): string[] {
    const root = realDirectory;
    return this.paths
      .map((path) => relative(root, path))
      .filter((path) => path !== '' && !path.startsWith(`..${sep}`) && path !== '..')
      .map((path) => path.split(sep).join('/'));
  }
}

function identityOf(info: FileIdentity): string {
  return `${info.dev}:${info.ino}`;
}
