/**
 * Which files Spring would read for an application and profiles, and how their documents
 * become property sources, highest precedence first (Spring reference §1, "Order of property
 * sources"). Derived from Boot's StandardConfigDataLocationResolver with
 * `spring.config.name=application,<apps>` and the search directories as one location group:
 * the last profile wins, every profile-specific file beats every plain file, later directories
 * win within a tier, then later names (`bar` > `foo` > `application`), then `.properties` >
 * `.yml` > `.yaml`.
 */
import type { ConfigDocument } from '../codecs/config-document.js';
import { matchesProfiles } from '../codecs/profile-expression.js';
import type { PropertySource } from './environment.js';

export interface CandidateFile {
  /** Repository-relative path, e.g. `foo-dev.yml` or `sub/application.properties`. */
  path: string;
  /** The profile a profile-specific file belongs to, or null for a plain file. */
  profile: string | null;
}

export interface CandidateRequest {
  applications: readonly string[];
  profiles: readonly string[];
  /** Repository-relative search directories, lowest precedence first ('' = root). */
  directories: readonly string[];
}

/** Same order as Boot's loaders list them, highest precedence first. */
const EXTENSIONS = ['properties', 'yml', 'yaml'] as const;

export function candidateConfigFiles(request: CandidateRequest): CandidateFile[] {
  const names = unique(['application', ...request.applications]);
  const directories = unique(request.directories.map(normalizeDirectory));
  if (directories.length === 0) directories.push('');
  const profiles = unique(request.profiles);
  const candidates: CandidateFile[] = [];
  const add = (stem: string, profile: string | null): void => {
    for (const directory of [...directories].reverse()) {
      for (const name of [...names].reverse()) {
        for (const extension of EXTENSIONS) {
          const file = `${name}${stem}.${extension}`;
          candidates.push({ path: directory === '' ? file : `${directory}/${file}`, profile });
        }
      }
    }
  };
  for (const profile of [...profiles].reverse()) add(`-${profile}`, profile);
  add('', null);
  return dedupeByPath(candidates);
}

export interface LoadedConfigFile {
  path: string;
  profile: string | null;
  documents: readonly ConfigDocument[];
}

/** One document of a file, in precedence order (see config-imports.ts). */
export interface FileDocument {
  path: string;
  document: ConfigDocument;
}

/**
 * Turns loaded files (in candidateConfigFiles order) into property sources: only documents
 * whose activation matches the profiles, later documents of a file first, empty ones skipped.
 * Sources are named `<uri>/<path>`, plus ` (document #N)` for multi-document files.
 */
export function buildPropertySources(
  files: readonly LoadedConfigFile[],
  profiles: readonly string[],
  uri: string,
): PropertySource[] {
  const documents = files.flatMap((file) =>
    [...file.documents].reverse().map((document) => ({ path: file.path, document })),
  );
  return propertySourcesOf(documents, profiles, uri);
}

/** Property sources of documents already in precedence order (inactive and empty ones left out). */
export function propertySourcesOf(
  documents: readonly FileDocument[],
  profiles: readonly string[],
  uri: string,
): PropertySource[] {
  const base = uri.replace(/\/+$/, '');
  const sources: PropertySource[] = [];
  for (const { path, document } of documents) {
    if (document.properties.size === 0) continue;
    if (document.activation !== undefined && !matchesProfiles(document.activation, profiles)) continue;
    const suffix = document.count > 1 ? ` (document #${document.index})` : '';
    const name = `${base}/${path}${suffix}`;
    const { properties: source, origins } = document;
    sources.push(origins === undefined ? { name, source } : { name, source, origins });
  }
  return sources;
}

function normalizeDirectory(directory: string): string {
  return directory
    .replace(/^\.?\/+/, '')
    .replace(/\/+$/, '')
    .replace(/^\.$/, '');
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}

function dedupeByPath(candidates: CandidateFile[]): CandidateFile[] {
  const seen = new Set<string>();
  return candidates.filter((candidate) => {
    if (seen.has(candidate.path)) return false;
    seen.add(candidate.path);
    return true;
  });
}
