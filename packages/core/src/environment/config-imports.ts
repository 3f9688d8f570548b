/**
 * `spring.config.import` inside repository files, as Spring Cloud Config Server 4.x/5.x serves it (its
 * NativeEnvironmentRepository runs Boot's ConfigData machinery with `spring.config.on-not-found=IGNORE`, then
 * keeps only sources inside its search locations). What that amounts to, checked against a running server:
 * - a relative location (`extra.yml`, `../shared/x.yml`, `sub/`) is taken from the importing file's folder and
 *   served when it stays inside the search directories; `optional:` changes nothing (missing files are
 *   ignored either way); prefixed (`file:`, `classpath:`, `configserver:`) and absolute locations point
 *   outside the repository and are never served;
 * - a folder (`sub/`) reads `application` and the application names there, as a search directory does;
 * - an imported file ranks just above the document importing it (later imports above earlier ones, an
 *   import's own imports above it); its profile variants (`extra-dev.yml`) are loaded once profiles are
 *   active and, like Boot's `moveProfileSpecific`, hoisted one level up the import tree;
 * - a file is loaded once per environment, which also ends cycles.
 * The tree below is Boot's ConfigDataEnvironmentContributor tree, reduced to what the server can observe.
 */
import type { ConfigDocument } from '../codecs/config-document.js';
import { matchesProfiles } from '../codecs/profile-expression.js';
import { ConfbusError } from '../errors/confbus-error.js';
import { coreErrors } from '../errors.js';
import { type StepRunner, runAtOnce } from '../step-runner.js';
import { type CandidateFile, type FileDocument, candidateConfigFiles } from './config-file-order.js';

const IMPORT_KEY = 'spring.config.import';
const CONFIG_EXTENSION = /\.(?:properties|ya?ml)$/;

/** Most files one environment may import (directly or through other imports); beyond, the build fails. */
export const MAX_IMPORTED_FILES = 100;
/**
 * Most documents with imports one environment may process: each step rescans the tree (Boot's order), so a
 * file of thousands of documents that each import something would otherwise cost a quadratic scan.
 */
export const MAX_IMPORT_STEPS = 256;

export interface ImportTreeRequest {
  applications: readonly string[];
  profiles: readonly string[];
  /** Repository-relative search directories, lowest precedence first ('' = root). */
  directories: readonly string[];
}

/** Reads a repository file's documents; undefined when the repository has no such file. */
export type DocumentLoader = (path: string) => Promise<readonly ConfigDocument[] | undefined>;

type Phase = 'before' | 'after';

interface Contributor {
  /** Null for the initial import (the search directories themselves). */
  readonly path: string | null;
  readonly document?: ConfigDocument;
  profileSpecific: boolean;
  before: Contributor[];
  after: Contributor[];
  readonly processed: Set<Phase>;
}

/**
 * The documents of an environment, highest precedence first, imports included. `step` runs each walk of the tree
 * (a file of 1,000 documents is 1,000 contributors): a server's time slicing (core's step-runner.ts).
 */
export async function loadWithImports(
  request: ImportTreeRequest,
  exists: (path: string) => boolean,
  load: DocumentLoader,
  step: StepRunner = runAtOnce,
): Promise<FileDocument[]> {
  const tree = new ImportTree(request, exists, load, step);
  await tree.build();
  return step(() => tree.ordered());
}

class ImportTree {
  private readonly root: Contributor = newContributor(null, undefined, false);
  private readonly loaded = new Set<string>();
  private imported = 0;
  private steps = 0;
  private readonly candidates: CandidateFile[];

  constructor(
    private readonly request: ImportTreeRequest,
    private readonly exists: (path: string) => boolean,
    private readonly load: DocumentLoader,
    private readonly step: StepRunner,
  ) {
    this.candidates = candidateConfigFiles({
      applications: request.applications,
      profiles: request.profiles,
      directories: request.directories,
    });
  }

  async build(): Promise<void> {
    // Resolution order is lowest precedence first (contributors reverses it).
    const plain = this.candidates.filter((candidate) => candidate.profile === null).reverse();
    this.root.before = await this.contributors(
      plain.map((c) => ({ path: c.path, profileSpecific: false })),
      false,
    );
    this.root.processed.add('before');
    await this.processPhase('before');
    await this.processPhase('after');
  }

  ordered(): FileDocument[] {
    const out: FileDocument[] = [];
    for (const contributor of iterate(this.root)) {
      if (contributor.path !== null && contributor.document) {
        out.push({ path: contributor.path, document: contributor.document });
      }
    }
    return out;
  }

  /** Boot processes the first contributor (in precedence order) with imports left, until none is left. */
  private async processPhase(phase: Phase): Promise<void> {
    for (;;) {
      const next = await this.step(() =>
        [...iterate(this.root)].find(
          (c) =>
            !c.processed.has(phase) &&
            this.isActive(c, phase) &&
            (c.path === null || importsOf(c).length > 0),
        ),
      );
      if (!next) return;
      if (next.path !== null && ++this.steps > MAX_IMPORT_STEPS) {
        throw new ConfbusError(
          coreErrors.CONFBUS_CONFIG_LIMIT,
          `${next.path}: more than ${MAX_IMPORT_STEPS} documents with ${IMPORT_KEY} in one environment`,
        );
      }
      next.processed.add(phase);
      const children = await this.contributors(this.resolve(next, phase), next.path !== null);
      if (phase === 'before') next.before = children;
      else next.after = [...hoistProfileSpecific(next), ...children];
    }
  }

  private isActive(contributor: Contributor, phase: Phase): boolean {
    const activation = contributor.document?.activation;
    if (activation === undefined) return true;
    return phase === 'after' && matchesProfiles(activation, this.request.profiles);
  }

  /** The files an import resolves to, in Boot's resolution order (reversed when they become contributors). */
  private resolve(contributor: Contributor, phase: Phase): { path: string; profileSpecific: boolean }[] {
    if (contributor.path === null) {
      // The search directories once profiles are active: the profile-specific files, highest first.
      const profiled = this.candidates.filter((candidate) => candidate.profile !== null);
      return profiled.reverse().map((c) => ({ path: c.path, profileSpecific: true }));
    }
    const resolved: { path: string; profileSpecific: boolean }[] = [];
    const firstTime = phase === 'before' || !contributor.processed.has('before');
    for (const location of importsOf(contributor)) {
      const target = resolveLocation(location, contributor.path, this.request.directories);
      if (target === undefined) continue;
      if (firstTime) resolved.push(...this.variants(target, null));
      if (phase === 'after') {
        for (const profile of this.request.profiles) resolved.push(...this.variants(target, profile));
      }
    }
    return resolved;
  }

  /** A file import's `name-profile.ext`, or a folder's candidate files, in Boot's resolution order. */
  private variants(target: string, profile: string | null): { path: string; profileSpecific: boolean }[] {
    const profileSpecific = profile !== null;
    if (!target.endsWith('/')) {
      const extension = CONFIG_EXTENSION.exec(target)?.[0] ?? '';
      const path = profile === null ? target : `${target.slice(0, -extension.length)}-${profile}${extension}`;
      return [{ path, profileSpecific }];
    }
    const files = candidateConfigFiles({
      applications: this.request.applications,
      profiles: profile === null ? [] : [profile],
      directories: [target.slice(0, -1)],
    }).filter((candidate) => candidate.profile === profile);
    return files.reverse().map((c) => ({ path: c.path, profileSpecific }));
  }

  /** Loads resolved files not loaded yet; their documents become contributors, last file and document first. */
  private async contributors(
    resolved: { path: string; profileSpecific: boolean }[],
    imports: boolean,
  ): Promise<Contributor[]> {
    const out: Contributor[] = [];
    for (const { path, profileSpecific } of [...resolved].reverse()) {
      if (this.loaded.has(path) || !this.exists(path)) continue;
      this.loaded.add(path);
      if (imports && ++this.imported > MAX_IMPORTED_FILES) {
        throw new ConfbusError(
          coreErrors.CONFBUS_CONFIG_LIMIT,
          `${path}: more than ${MAX_IMPORTED_FILES} files imported through ${IMPORT_KEY} in one environment`,
        );
      }
      const documents = (await this.load(path)) ?? [];
      await this.step(() => {
        for (const document of [...documents].reverse()) {
          if (document.properties.size === 0) continue;
          out.push(newContributor(path, document, profileSpecific));
        }
      });
    }
    return out;
  }
}

function newContributor(path: string | null, document: ConfigDocument | undefined, profileSpecific: boolean) {
  const contributor: Contributor = { path, profileSpecific, before: [], after: [], processed: new Set() };
  return document === undefined ? contributor : { ...contributor, document };
}

/** Boot's ContributorIterator: children found after profile activation, then those before, then itself. */
function* iterate(contributor: Contributor): Generator<Contributor> {
  for (const child of contributor.after) yield* iterate(child);
  for (const child of contributor.before) yield* iterate(child);
  yield contributor;
}

/**
 * Boot's moveProfileSpecific: profile-specific grandchildren (imports of this contributor's earlier children)
 * move to the front of its own after-activation children, losing the mark, so they move one level only.
 */
function hoistProfileSpecific(contributor: Contributor): Contributor[] {
  const moved: Contributor[] = [];
  for (const child of contributor.before) {
    for (const phase of ['before', 'after'] as const) {
      const kept: Contributor[] = [];
      for (const grandchild of child[phase]) {
        if (grandchild.profileSpecific) {
          grandchild.profileSpecific = false;
          moved.push(grandchild);
        } else kept.push(grandchild);
      }
      child[phase] = kept;
    }
  }
  return moved;
}

/** `spring.config.import` as Boot binds it: a comma list or indexed items. */
function importsOf(contributor: Contributor): string[] {
  const properties = contributor.document?.properties;
  if (!properties) return [];
  const values: string[] = [];
  if (properties.has(IMPORT_KEY)) values.push(String(properties.get(IMPORT_KEY)));
  for (let i = 0; properties.has(`${IMPORT_KEY}[${i}]`); i++) {
    values.push(String(properties.get(`${IMPORT_KEY}[${i}]`)));
  }
  return values
    .flatMap((value) => value.split(','))
    .map((value) => value.trim())
    .filter((v) => v !== '');
}

/**
 * A location relative to the importing file, normalised: a repository path (a folder ends with `/`), or
 * undefined for what Spring would not serve (prefixed, absolute, outside the search directories, no
 * configuration file extension).
 */
export function resolveLocation(
  location: string,
  importer: string,
  directories: readonly string[],
): string | undefined {
  const path = location.replace(/^optional:/, '');
  if (/^[a-zA-Z][a-zA-Z0-9*+.-]*:/.test(path) || path.startsWith('/') || path.includes('\\'))
    return undefined;
  const folder = path.endsWith('/');
  if (!folder && !CONFIG_EXTENSION.test(path)) return undefined;
  const base = importer.includes('/') ? importer.slice(0, importer.lastIndexOf('/')).split('/') : [];
  const segments = [...base];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (segments.length === 0) return undefined;
      segments.pop();
    } else segments.push(segment);
  }
  const normalised = segments.join('/');
  if (normalised === '' && !folder) return undefined;
  const inside = directories.some((d) => d === '' || normalised === d || normalised.startsWith(`${d}/`));
  if (!inside) return undefined;
  return folder ? (normalised === '' ? '/' : `${normalised}/`) : normalised;
}
