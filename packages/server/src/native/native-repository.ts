/**
 * The native backend (`spring.profiles.active=native`): configuration read from folders instead of Git, for
 * development and for trying confbus on a folder of YAML files. It implements the same ConfigRepository port
 * as GitMirror, so formats, precedence, placeholders and the plain-text endpoint are the Git ones.
 *
 * The folders are presented as one tree: search location i is the directory `i/`, its placeholders
 * (`{application}`, `{profile}`, `{label}`) become search paths below it, and its label sub-folders `i/<label>`
 * (one per label of a label list, the last first) come after all locations, as in Spring's
 * NativeEnvironmentRepository.getLocations: a label list is one environment here, not one per label as in Git. A "commit" is a
 * fingerprint of every file's path, size and modification time, taken on each request (concurrent requests
 * share one walk), so an edit is served on the next request and unchanged folders keep hitting the cache.
 * The server's own files (its settings file, its key store: ../settings/server-own-files.ts) are never listed
 * nor read, wherever the locations point; a file is read only as the walk would list it (no symbolic link, no
 * hidden folder, not the server's), checked on the open file itself.
 */
import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, open, readdir, realpath } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { ConfbusError, coreErrors } from '@confbus/core';
import type { ConfigRepository, ResolvedRevision } from '../environment/config-repository.js';
import { EACH_LABEL } from '../environment/search-directories.js';
import type { MirrorHealth } from '../git/index.js';
import { ServerOwnFiles } from '../settings/server-own-files.js';

/** Deep enough for location/{application}/{label}/file; beyond, nothing Spring would read either. */
const MAX_DEPTH = 4;
const MAX_FILES = 10_000;
/** Hidden directories (`.git`, `.confbus`) and dependencies are never configuration. */
const isSkippedDirectory = (name: string): boolean => name.startsWith('.') || name === 'node_modules';

export interface NativeLocation {
  /** Absolute directory read from (the part of the location before any placeholder). */
  base: string;
  /** The placeholder part below it (`{application}`), or '' for a plain folder. */
  pattern: string;
}

export interface NativeRepositoryOptions {
  /** `spring.cloud.config.server.native.search-locations`, e.g. `file:./config`, `file:/srv/{application}`. */
  searchLocations: readonly string[];
  defaultLabel: string;
  addLabelLocations: boolean;
  cwd: string;
  /** Never listed nor read (default: none). */
  ownFiles?: ServerOwnFiles;
  warn: (message: string) => void;
}

interface Snapshot {
  commit: string;
  files: string[];
}

export class NativeRepository implements ConfigRepository {
  readonly locations: NativeLocation[];
  private walking: Promise<Snapshot> | undefined;
  private readonly snapshots = new Map<string, Snapshot>();
  private lastSuccessAt: Date | undefined;
  private checks = 0;
  private readonly ownFiles: ServerOwnFiles;

  constructor(private readonly options: NativeRepositoryOptions) {
    this.locations = options.searchLocations.map((location) => parseLocation(location, options.cwd));
    this.ownFiles = options.ownFiles ?? ServerOwnFiles.none;
  }

  /** The directories to search below the tree root, in Spring's order: every location, then label folders. */
  searchPaths(): string[] {
    const paths = this.locations.map((location, i) =>
      location.pattern ? `${i}/${location.pattern}` : `${i}`,
    );
    if (this.options.addLabelLocations) {
      this.locations.forEach((location, i) => {
        if (!location.pattern) paths.push(`${i}/${EACH_LABEL}`);
      });
    }
    return paths;
  }

  /**
   * The folder on disk a tree directory is (`1` and `0/dev` are one for `file:./{profile}`, `file:./dev`): so
   * the environment service searches it once, as Spring's set of locations holds it once.
   */
  folderOf(directory: string): string {
    if (directory === '') return ''; // the tree's root, above every location: no folder of its own
    const slash = directory.indexOf('/');
    const index = slash < 0 ? directory : directory.slice(0, slash);
    const location = this.locations[Number(index)];
    return location ? join(location.base, slash < 0 ? '' : directory.slice(slash + 1)) : directory;
  }

  /** `file:/abs/dir/foo.yml`, as Spring names native property sources. */
  displayNameOf(path: string): string {
    const slash = path.indexOf('/');
    const location = this.locations[Number(path.slice(0, slash))];
    return location ? `file:${join(location.base, path.slice(slash + 1))}` : path;
  }

  async resolve(label: string | null): Promise<ResolvedRevision> {
    this.walking ??= this.walk().finally(() => (this.walking = undefined));
    const snapshot = await this.walking;
    return { label: label ?? this.options.defaultLabel, commit: snapshot.commit, stale: false };
  }

  async listFiles(commit: string): Promise<readonly string[]> {
    return this.snapshots.get(commit)?.files ?? (await this.walk()).files;
  }

  /** A file as the walk lists it; undefined for anything the walk would skip (see the top of the file). */
  async readFile(_commit: string, path: string): Promise<Buffer | undefined> {
    const slash = path.indexOf('/');
    const location = this.locations[Number(path.slice(0, slash))];
    const parts = path.slice(slash + 1).split('/');
    if (!location || parts.length > MAX_DEPTH) return undefined;
    if (parts.some((part) => part === '..' || part === '' || part === '.')) return undefined;
    if (parts.slice(0, -1).some(isSkippedDirectory)) return undefined;
    const full = join(await realBase(location), ...parts);
    // O_NOFOLLOW: a symbolic link is not followed; the checks are made on the file opened, not on a path.
    const file = await open(full, constants.O_RDONLY | constants.O_NOFOLLOW).catch(() => undefined);
    if (!file) return undefined;
    try {
      const info = await file.stat();
      if (!info.isFile() || this.ownFiles.isOwn(full, info)) return undefined;
      return await file.readFile();
    } catch {
      return undefined;
    } finally {
      await file.close();
    }
  }

  start(): Promise<void> {
    return this.resolve(null).then(() => undefined);
  }

  health(): MirrorHealth {
    return {
      uri: this.options.searchLocations.join(','),
      // Files on disk: always there to serve.
      available: true,
      lastCheckAt: this.lastSuccessAt,
      lastSuccessAt: this.lastSuccessAt,
      stale: false,
      checks: this.checks,
      fetches: 0,
    };
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  private async walk(): Promise<Snapshot> {
    this.checks++;
    const files: string[] = [];
    const fingerprint = createHash('sha1');
    for (const [i, location] of this.locations.entries()) {
      await this.walkDirectory(await realBase(location), `${i}`, 0, files, fingerprint);
    }
    const snapshot = { commit: fingerprint.digest('hex'), files };
    // Kept per fingerprint so a request reads the listing it resolved; a few are plenty.
    if (this.snapshots.size >= 8) this.snapshots.delete(this.snapshots.keys().next().value as string);
    this.snapshots.set(snapshot.commit, snapshot);
    this.lastSuccessAt = new Date();
    return snapshot;
  }

  private async walkDirectory(
    directory: string,
    prefix: string,
    depth: number,
    files: string[],
    fingerprint: ReturnType<typeof createHash>,
  ): Promise<void> {
    const entries = await readdir(directory).catch(() => [] as string[]);
    for (const name of entries.sort()) {
      if (files.length >= MAX_FILES) {
        this.options.warn(
          `Native backend: more than ${MAX_FILES} files under the search locations; the rest are ignored`,
        );
        return;
      }
      const full = join(directory, name);
      // lstat: symbolic links are not followed (no loops, nothing outside the folders).
      const stat = await lstat(full).catch(() => undefined);
      if (!stat) continue;
      const path = `${prefix}/${name}`;
      if (stat.isDirectory()) {
        if (depth + 1 < MAX_DEPTH && !isSkippedDirectory(name)) {
          await this.walkDirectory(full, path, depth + 1, files, fingerprint);
        }
      } else if (stat.isFile() && !this.ownFiles.isOwn(full, stat)) {
        files.push(path);
        fingerprint.update(`${path}\u0000${stat.size}\u0000${stat.mtimeMs}\u0000`);
      }
    }
  }
}

/**
 * The location's folder with symbolic links resolved, so paths below it are real (the server's own files are
 * known by real path); the folder as written when it does not exist (yet).
 */
function realBase(location: NativeLocation): Promise<string> {
  return realpath(location.base).catch(() => location.base);
}

/** `file:./config/{application}` → base `<cwd>/config`, pattern `{application}`. */
function parseLocation(location: string, cwd: string): NativeLocation {
  let path = location.replace(/^optional:/, '');
  if (path.startsWith('classpath:')) {
    throw new ConfbusError(
      coreErrors.CONFBUS_BAD_SETTING,
      `spring.cloud.config.server.native.search-locations: ${location}: classpath: locations are not supported (use file:)`,
    );
  }
  path = path.replace(/^file:(\/\/)?/, '');
  const segments = path.split('/');
  const firstPlaceholder = segments.findIndex((segment) => segment.includes('{'));
  const baseSegments = firstPlaceholder === -1 ? segments : segments.slice(0, firstPlaceholder);
  const base = baseSegments.join('/') || '/';
  return {
    base: isAbsolute(base) ? resolve(base) : resolve(cwd, base),
    pattern: firstPlaceholder === -1 ? '' : segments.slice(firstPlaceholder).filter(Boolean).join('/'),
  };
}
