/**
 * Reads the repositories a server serves from its settings: the default one (`spring.cloud.config.server.git.*`)
 * and the named ones (`spring.cloud.config.server.git.repos.<name>.*`), in the order they were configured.
 * Unset values of a named repository are inherited from the default one as Spring's
 * MultipleJGitEnvironmentRepository does (timeout, refresh-rate, username with password); confbus also inherits
 * the default label, since ours falls back from master to main on its own.
 */
import { type Settings, splitList } from '@confbus/core';

export const GIT = 'spring.cloud.config.server.git';
const REPOS = `${GIT}.repos.`;

export interface RepositoryDefinition {
  /** `default` for the default repository, else the key under `repos`. */
  name: string;
  /** May hold `{application}`, `{profile}`, `{label}`: one mirror per distinct expansion. */
  uri: string;
  /** Empty for the default repository; a named one without `pattern` matches its own name. */
  patterns: readonly string[];
  searchPaths: readonly string[];
  username: string | undefined;
  password: string | undefined;
  defaultLabel: string;
  cloneOnStart: boolean;
  timeoutSeconds: number;
  refreshRateSeconds: number;
}

/** The properties a named repository accepts, keyed without dashes (relaxed names: searchPaths, search-paths). */
const PROPERTIES = [
  'uri',
  'pattern',
  'searchpaths',
  'username',
  'password',
  'defaultlabel',
  'cloneonstart',
  'timeout',
  'refreshrate',
] as const;
type Property = (typeof PROPERTIES)[number];

export function defaultRepositoryDefinition(settings: Settings, uri: string): RepositoryDefinition {
  return {
    name: 'default',
    uri,
    patterns: [],
    searchPaths: settings.list(`${GIT}.search-paths`),
    username: settings.optionalString(`${GIT}.username`),
    password: settings.optionalString(`${GIT}.password`),
    defaultLabel: settings.string(`${GIT}.default-label`),
    cloneOnStart: settings.boolean(`${GIT}.clone-on-start`),
    timeoutSeconds: settings.number(`${GIT}.timeout`),
    refreshRateSeconds: settings.number(`${GIT}.refresh-rate`),
  };
}

/** Throws a message naming the key for a named repository without a uri or with a value of the wrong type. */
export function namedRepositoryDefinitions(
  settings: Settings,
  defaults: RepositoryDefinition,
  warn: (message: string) => void,
): RepositoryDefinition[] {
  const raw = new Map<string, Map<Property, string[]>>();
  for (const key of settings.keysUnder(REPOS)) {
    const rest = key.slice(REPOS.length);
    const dot = rest.indexOf('.');
    if (dot <= 0) continue;
    const name = rest.slice(0, dot);
    // YAML lists arrive as `pattern[0]`, `pattern[1]`; relaxed names drop dashes and underscores.
    const property = rest
      .slice(dot + 1)
      .replace(/\[\d+\]$/, '')
      .replace(/[-_]/g, '') as Property;
    if (!PROPERTIES.includes(property)) {
      warn(`${key}: not a repository property confbus knows (${PROPERTIES.join(', ')}); ignored`);
      continue;
    }
    const value = settings.get(key);
    const values = Array.isArray(value) ? value.map(String) : splitList(String(value ?? ''));
    const properties = raw.get(name) ?? new Map<Property, string[]>();
    properties.set(property, [...(properties.get(property) ?? []), ...values]);
    raw.set(name, properties);
  }
  return [...raw].map(([name, properties]) => {
    const one = (property: Property): string | undefined => properties.get(property)?.join(',');
    const uri = one('uri');
    if (uri === undefined || uri === '') throw new Error(`${REPOS}${name}.uri is required`);
    const username = one('username');
    return {
      name,
      uri,
      patterns: properties.get('pattern') ?? [name],
      searchPaths: properties.get('searchpaths') ?? [],
      username: username ?? defaults.username,
      password: username === undefined ? defaults.password : one('password'),
      defaultLabel: one('defaultlabel') ?? defaults.defaultLabel,
      cloneOnStart: parseBoolean(`${REPOS}${name}.clone-on-start`, one('cloneonstart')) ?? false,
      timeoutSeconds: parseInteger(`${REPOS}${name}.timeout`, one('timeout')) ?? defaults.timeoutSeconds,
      refreshRateSeconds:
        parseInteger(`${REPOS}${name}.refresh-rate`, one('refreshrate')) ?? defaults.refreshRateSeconds,
    };
  });
}

function parseInteger(key: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^-?\d+$/.test(text.trim())) throw new Error(`${key} must be an integer, got '${text}'`);
  return Number(text);
}

function parseBoolean(key: string, text: string | undefined): boolean | undefined {
  if (text === undefined) return undefined;
  const lower = text.trim().toLowerCase();
  if (lower === 'true' || lower === 'false') return lower === 'true';
  throw new Error(`${key} must be true or false, got '${text}'`);
}
