/**
 * Which applications and profiles a repository holds at a commit, for the console: read from file names in the
 * searched directories (`foo.yml`, `foo-dev.properties`, `{application}` search-path directories) and from the
 * profiles that multi-document files activate (`spring.config.activate.on-profile`, `spring.profiles`).
 * A name like `foo-bar-dev.yml` is split as the file endpoints split it: the longest prefix that is itself an
 * application (`foo-bar.yml` exists) wins, else the part before the last `-` is the application.
 */
import { posix } from 'node:path';
import {
  type ConsoleApplication,
  type ProfileNode,
  isConfigFileName,
  validateApplicationName,
  validateProfile,
} from '@confbus/core';
import { antMatch } from '@confbus/core/internal';
import type { ConfigRepository } from '../environment/config-repository.js';
import { LruCache } from '../support/lru-cache.js';
import type { ParsedFiles } from '../environment/parsed-files.js';
import { directoriesOf } from '../environment/search-directories.js';

/** An application as the console API lists it, but with all its files (the list answer shows the first few). */
export type CatalogueApplication = Omit<ConsoleApplication, 'fileCount'>;

export interface Catalogue {
  commit: string;
  applications: CatalogueApplication[];
}

/** A directory the server searches, and the application it belongs to when a search path says `{application}`. */
interface SearchedDirectory {
  dir: string;
  application?: string;
}

const SHARED = 'application';
/** Files read at once from the repository's object reader while a catalogue is built. */
const READ_CONCURRENCY = 64;
// A parse is needed only for files that can activate profiles; cheaper than parsing every file of a large repo.
const MENTIONS_PROFILES = /on-profile|profiles/;

export class ApplicationCatalogue {
  private readonly catalogues = new LruCache<string, Promise<Catalogue>>(8);
  /** Profiles a file's documents activate, by blob id: after a push only changed files are read again. */
  private readonly activations = new LruCache<string, readonly string[]>(50_000);

  constructor(
    private readonly repository: Pick<ConfigRepository, 'listFiles' | 'blobIds' | 'readFile'>,
    private readonly searchPaths: readonly string[],
    /**
     * The repository's parsed files (its environment service's): a file is parsed in a worker when large and
     * refused past max-file-bytes, once for the console and the environments alike. Parsing here, on the event
     * loop, held it for seconds with a large file (2 MB of YAML: 9 s).
     */
    private readonly files: Pick<ParsedFiles, 'read' | 'maxFileBytes'>,
  ) {}

  /** The catalogue at `commit` (a 40-hex id), built once per commit; concurrent callers share the build. */
  at(commit: string): Promise<Catalogue> {
    let pending = this.catalogues.get(commit);
    if (!pending) {
      pending = this.build(commit);
      pending.catch(() => this.catalogues.delete(commit));
      this.catalogues.set(commit, pending);
    }
    return pending;
  }

  private async build(commit: string): Promise<Catalogue> {
    const files = await this.repository.listFiles(commit);
    const ids = await this.repository.blobIds?.(commit);
    const searched = searchedDirectories(this.searchPaths, directoriesOf(files));
    const byDir = new Map(searched.map((entry) => [entry.dir, entry]));
    const configFiles = files.filter((file) => isConfigFileName(file) && byDir.has(dirOf(file)));
    const stems = new Set(configFiles.map((file) => stemOf(file)));
    const applications = new Map<string, CatalogueApplication>();
    // Profiles collected in a set per application, listed once at the end: copying the list for every file was
    // quadratic in an application's files (10,000 `svc-<n>.yml` files are one application `svc` with 10,000
    // profiles, and held the event loop for seconds after every push).
    const profilesOf = new Map<CatalogueApplication, Set<string>>();
    const owned: Array<{ file: string; profiles: Set<string> }> = [];
    for (const file of configFiles) {
      const owner = classify(stemOf(file), byDir.get(dirOf(file))?.application, stems);
      if (!owner) continue;
      let entry = applications.get(owner.application);
      if (!entry) {
        entry = { name: owner.application, profiles: [], files: [], shared: owner.application === SHARED };
        applications.set(owner.application, entry);
        profilesOf.set(entry, new Set());
      }
      entry.files.push(file);
      const profiles = profilesOf.get(entry) as Set<string>;
      profiles.add(owner.profile);
      owned.push({ file, profiles });
    }
    // The profiles files activate: known by blob id for all but the files a push changed; the others read
    // READ_CONCURRENCY at a time (one after the other, a first catalogue of 10,000 files took about 10 s).
    for (let start = 0; start < owned.length; start += READ_CONCURRENCY) {
      const batch = owned.slice(start, start + READ_CONCURRENCY);
      const activated = await Promise.all(
        batch.map(({ file }) => this.activatedProfiles(commit, file, ids?.get(file))),
      );
      batch.forEach(({ profiles }, i) => {
        for (const profile of activated[i] as readonly string[]) profiles.add(profile);
      });
    }
    const list = [...applications.values()].sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of list) entry.profiles = sortProfiles([...(profilesOf.get(entry) as Set<string>)]);
    return { commit, applications: list };
  }

  private async activatedProfiles(
    commit: string,
    file: string,
    blobId: string | undefined,
  ): Promise<readonly string[]> {
    const key = `${blobId ?? commit}\0${file}`;
    const known = this.activations.get(key);
    if (known) return known;
    // A file over max-file-bytes (refused before it is read) or one that does not parse activates nothing; the
    // environment endpoints report it.
    const bytes = await this.repository
      .readFile(commit, file, this.files.maxFileBytes)
      .catch(() => undefined);
    const names = new Set<string>();
    if (bytes !== undefined && MENTIONS_PROFILES.test(bytes.toString('utf8'))) {
      try {
        for (const document of (await this.files.read(commit, file, blobId)).documents)
          for (const node of document.activation?.anyOf ?? []) collectNames(node, names);
      } catch {
        // see above
      }
    }
    const profiles = [...names].filter((name) => validateProfile(name) === undefined);
    this.activations.set(key, profiles);
    return profiles;
  }
}

/**
 * The root, plus every directory a search path names: placeholders and Ant wildcards matched against the tree as
 * the environment endpoints match them (core's linear antMatch: directory names come from the repository, so no
 * backtracking RegExp meets them; `{application}`, `{profile}` and `{label}` match like `*`).
 */
export function searchedDirectories(
  patterns: readonly string[],
  tree: ReadonlySet<string>,
): SearchedDirectory[] {
  const out = new Map<string, SearchedDirectory>([['', { dir: '' }]]);
  const dirs = [...tree].sort();
  for (const raw of patterns) {
    const pattern = raw.replace(/^\/+|\/+$/g, '');
    if (pattern === '' || pattern.split('/').some((part) => part === '..' || part === '.')) continue;
    const applicationOf = applicationReader(pattern);
    for (const dir of dirs) {
      if (out.has(dir) || !antMatch(pattern, dir, '/')) continue;
      const application = applicationOf(dir);
      out.set(dir, application === undefined ? { dir } : { dir, application });
    }
  }
  return [...out.values()];
}

/**
 * Reads the `{application}` of a directory the pattern matched: the path segment at the placeholder's place
 * (counted from the end when a `**` comes before it), less the segment's literal text around the placeholder.
 * Undefined when the pattern has none, or its place or the text around it is itself a wildcard.
 */
function applicationReader(pattern: string): (dir: string) => string | undefined {
  const segments = pattern.split('/');
  const at = segments.findIndex((segment) => segment.includes('{application}'));
  const segment = segments[at];
  if (segment === undefined) return () => undefined;
  const [prefix = '', suffix = ''] = segment.split('{application}');
  const doubleStarBefore = segments.slice(0, at).includes('**');
  const doubleStarAfter = segments.slice(at + 1).includes('**');
  if (/[*?{}]/.test(prefix + suffix) || (doubleStarBefore && doubleStarAfter)) return () => undefined;
  const fromEnd = segments.length - at;
  return (dir) => {
    const parts = dir.split('/');
    const part = doubleStarBefore ? parts[parts.length - fromEnd] : parts[at];
    if (part === undefined || !part.startsWith(prefix) || !part.endsWith(suffix)) return undefined;
    const application = part.slice(prefix.length, part.length - suffix.length);
    return application === '' ? undefined : application;
  };
}

function classify(
  stem: string,
  directoryApplication: string | undefined,
  stems: ReadonlySet<string>,
): { application: string; profile: string } | undefined {
  let application: string;
  let profile = 'default';
  if (stem === SHARED || stem.startsWith(`${SHARED}-`)) {
    application = directoryApplication ?? SHARED;
    if (stem !== SHARED) profile = stem.slice(SHARED.length + 1);
  } else {
    const split = splitStem(stem, stems);
    application = split.application;
    profile = split.profile;
  }
  if (validateApplicationName(application) !== undefined || validateProfile(profile) !== undefined)
    return undefined;
  return { application, profile };
}

function splitStem(stem: string, stems: ReadonlySet<string>): { application: string; profile: string } {
  if (!stem.includes('-')) return { application: stem, profile: 'default' };
  for (let at = stem.lastIndexOf('-'); at > 0; at = stem.lastIndexOf('-', at - 1)) {
    const prefix = stem.slice(0, at);
    if (stems.has(prefix)) return { application: prefix, profile: stem.slice(at + 1) };
  }
  const last = stem.lastIndexOf('-');
  return { application: stem.slice(0, last), profile: stem.slice(last + 1) };
}

function collectNames(node: ProfileNode, into: Set<string>): void {
  if (node.kind === 'profile') into.add(node.name);
  else if (node.kind === 'not') collectNames(node.operand, into);
  else for (const operand of node.operands) collectNames(operand, into);
}

function sortProfiles(profiles: readonly string[]): string[] {
  const rest = profiles.filter((p) => p !== 'default').sort();
  return profiles.includes('default') ? ['default', ...rest] : rest;
}

function dirOf(file: string): string {
  const dir = posix.dirname(file);
  return dir === '.' ? '' : dir;
}

function stemOf(file: string): string {
  return posix.basename(file).replace(/\.(?:ya?ml|properties)$/i, '');
}
