/**
 * The named repositories (`git.repos.<name>.*`, or Spring's shortcut `git.repos.<name>=<uri>`), in the order
 * configured. A named repository inherits what it leaves unset from the default one as Spring's
 * MultipleJGitEnvironmentRepository does (timeout, refresh-rate, username with password), plus the default label
 * and the transport settings (try-master-branch, delete-untracked-branches, skip-ssl-validation, proxy.*); SSH
 * settings are per repository, as Spring keys them by host. An unimplemented Spring repository setting
 * (clone-submodules) stops the start, as it does for the default repository. Apart from the default repository's
 * reader because these keys are free-form (any name, relaxed spellings, list indices) and read by hand.
 */
import { type Settings, SettingsError } from '@confbus/core';
import { splitList, unsupportedSettingMessage } from '@confbus/core/internal';
import type { ProxySettings } from '../git/index.js';
import { unsupportedSpringServerSettings } from '../settings/unsupported-spring-settings.js';
import { GIT, type RepositoryDefinition, requirePathOnlyTemplate } from './default-repository-settings.js';
import {
  NAMED_REPOSITORY_PROPERTIES as PROPERTIES,
  type NamedRepositoryProperty as Property,
  UNSUPPORTED_NAMED_PROPERTIES as UNSUPPORTED,
} from './git-settings.js';

const REPOS = `${GIT}.repos.`;

/** Throws a message naming the key for a named repository without a uri or with a value of the wrong type. */
export function namedRepositoryDefinitions(
  settings: Settings,
  defaults: RepositoryDefinition,
  warn: (message: string) => void,
): RepositoryDefinition[] {
  return [...namedRepositoryProperties(settings, warn)].map(([name, properties]) => {
    const definition = namedRepositoryDefinition(name, properties, defaults, settings);
    // Spring forces the default repository's skip-ssl-validation=true onto every named one; confbus keeps
    // certificates checked where a repository asks for it (docs/coming-from-spring.md), and says so.
    if (defaults.skipSslValidation && !definition.skipSslValidation)
      warn(
        `${REPOS}${name}.skip-ssl-validation=false: its certificates are checked, although ${GIT}.skip-ssl-validation=true (Spring would skip them there too)`,
      );
    return definition;
  });
}

type RawProperties = Map<Property, string[]>;

/** The values set under `repos.<name>.*`, by repository name and property, in the order configured. */
function namedRepositoryProperties(
  settings: Settings,
  warn: (message: string) => void,
): Map<string, RawProperties> {
  const raw = new Map<string, RawProperties>();
  const shortcuts = new Map<string, string>();
  for (const key of settings.keysUnder(REPOS)) {
    const rest = key.slice(REPOS.length);
    const dot = rest.indexOf('.');
    if (dot === 0 || rest === '') continue;
    // `repos.<name>=<uri>`: Spring's shortcut (its docs, patternMatchingShortcutSyntax) for a repository with
    // a uri alone, which serves the application <name>.
    if (dot < 0) {
      const properties = raw.get(rest) ?? new Map<Property, string[]>();
      properties.set('uri', [...(properties.get('uri') ?? []), String(settings.get(key) ?? '')]);
      raw.set(rest, properties);
      shortcuts.set(rest, key);
      continue;
    }
    const name = rest.slice(0, dot);
    // YAML lists arrive as `pattern[0]`, `pattern[1]`; relaxed names drop dashes and underscores, and an
    // environment variable's `_` for a dash arrives as a dot (`..._REPOS_TEAMA_SEARCH_PATHS`: `search.paths`).
    const property = rest
      .slice(dot + 1)
      .replace(/\[\d+\]$/, '')
      .replace(/[-_.]/g, '') as Property;
    if (!isImplemented(settings, key, property, warn)) continue;
    const value = settings.get(key);
    const values = Array.isArray(value) ? value.map(String) : splitList(String(value ?? ''));
    const properties = raw.get(name) ?? new Map<Property, string[]>();
    properties.set(property, [...(properties.get(property) ?? []), ...values]);
    raw.set(name, properties);
  }
  for (const [name, key] of shortcuts) {
    if ((raw.get(name)?.get('uri')?.length ?? 0) > 1) {
      const message = `${settings.spellingOf(key)} and ${REPOS}${name}.uri both set the uri of repository '${name}'; keep one`;
      throw new SettingsError(message, key, settings.sourceOf(key) ?? 'file');
    }
  }
  return raw;
}

/**
 * Whether `property` (set by `key`) is one confbus reads; a Spring property confbus does not implement is
 * refused or warned about as for the default repository, anything else is warned about and ignored.
 */
function isImplemented(
  settings: Settings,
  key: string,
  property: Property,
  warn: (message: string) => void,
): boolean {
  const unsupported = UNSUPPORTED.get(property);
  const entry = unsupportedSpringServerSettings.find((candidate) => candidate.key === unsupported);
  if (entry !== undefined) {
    const source = settings.sourceOf(key) ?? 'file';
    const message = unsupportedSettingMessage(settings.spellingOf(key), source, entry);
    if (entry.effect === 'refuse') throw new SettingsError(message, key, source);
    warn(message);
    return false;
  }
  if (!PROPERTIES.includes(property)) {
    warn(`${key}: not a repository property confbus knows (${PROPERTIES.join(', ')}); ignored`);
    return false;
  }
  return true;
}

/** One named repository from its own values, the rest inherited from the default repository. */
function namedRepositoryDefinition(
  name: string,
  properties: RawProperties,
  defaults: RepositoryDefinition,
  settings: Settings,
): RepositoryDefinition {
  const values = new RepositoryValues(`${REPOS}${name}`, properties, settings);
  const one = (property: Property): string | undefined => values.text(property);
  const uri = one('uri');
  if (uri === undefined || uri === '') throw values.bad('uri', `${values.prefix}.uri is required`);
  requirePathOnlyTemplate(uri, `${values.prefix}.uri`, settings);
  const username = one('username');
  const flag = (property: Property, key: string, inherited: boolean): boolean =>
    values.flag(property, key) ?? inherited;
  return {
    name,
    uri,
    patterns: properties.get('pattern') ?? [name],
    searchPaths: properties.get('searchpaths') ?? [],
    username: username ?? defaults.username,
    password: username === undefined ? defaults.password : one('password'),
    defaultLabel: one('defaultlabel') ?? defaults.defaultLabel,
    cloneOnStart: values.flag('cloneonstart', 'clone-on-start') ?? false,
    timeoutSeconds: values.integer('timeout', 'timeout') ?? defaults.timeoutSeconds,
    timeoutSetting: one('timeout') === undefined ? defaults.timeoutSetting : `${values.prefix}.timeout`,
    refreshRateSeconds: values.integer('refreshrate', 'refresh-rate') ?? defaults.refreshRateSeconds,
    tryMasterBranch: flag('trymasterbranch', 'try-master-branch', defaults.tryMasterBranch),
    deleteUntrackedBranches: flag(
      'deleteuntrackedbranches',
      'delete-untracked-branches',
      defaults.deleteUntrackedBranches,
    ),
    skipSslValidation: flag('skipsslvalidation', 'skip-ssl-validation', defaults.skipSslValidation),
    proxy: {
      http: namedProxy(values, 'http', defaults.proxy.http),
      https: namedProxy(values, 'https', defaults.proxy.https),
    },
    ssh: {
      privateKey: one('privatekey'),
      passphrase: one('passphrase'),
      hostKey: one('hostkey'),
      hostKeyAlgorithm: one('hostkeyalgorithm'),
      knownHostsFile: one('knownhostsfile'),
      strictHostKeyChecking: flag('stricthostkeychecking', 'strict-host-key-checking', true),
      ignoreLocalSshSettings: flag('ignorelocalsshsettings', 'ignore-local-ssh-settings', false),
      preferredAuthentications: one('preferredauthentications'),
    },
  };
}

/** A named repository's proxy for one scheme: its own when it sets any of it, else the default repository's. */
function namedProxy(
  values: RepositoryValues,
  scheme: 'http' | 'https',
  inherited: ProxySettings,
): ProxySettings {
  const host = values.text(`proxy${scheme}host`);
  const port = values.integer(`proxy${scheme}port`, `proxy.${scheme}.port`);
  const username = values.text(`proxy${scheme}username`);
  const password = values.text(`proxy${scheme}password`);
  const nonProxyHosts = values.text(`proxy${scheme}nonproxyhosts`);
  const own = [host, port, username, password, nonProxyHosts].some((value) => value !== undefined);
  return own ? { host, port, username, password, nonProxyHosts } : inherited;
}

/**
 * The values one named repository sets, read as text, integers or flags. A value of the wrong type is a bad
 * setting (CONFBUS_BAD_SETTING) naming its key (`<prefix>.<key>`, the dashed spelling) and where it was set.
 */
class RepositoryValues {
  constructor(
    /** `spring.cloud.config.server.git.repos.<name>`. */
    readonly prefix: string,
    private readonly properties: RawProperties,
    private readonly settings: Settings,
  ) {}

  /** A list property's items joined with commas; undefined when unset. */
  text(property: Property): string | undefined {
    return this.properties.get(property)?.join(',');
  }

  integer(property: Property, key: string): number | undefined {
    const text = this.text(property);
    if (text === undefined) return undefined;
    if (!/^-?\d+$/.test(text.trim()))
      throw this.bad(key, `${this.prefix}.${key} must be an integer, got '${text}'`);
    return Number(text);
  }

  flag(property: Property, key: string): boolean | undefined {
    const text = this.text(property);
    if (text === undefined) return undefined;
    const lower = text.trim().toLowerCase();
    if (lower === 'true' || lower === 'false') return lower === 'true';
    throw this.bad(key, `${this.prefix}.${key} must be true or false, got '${text}'`);
  }

  bad(key: string, message: string): SettingsError {
    const setting = `${this.prefix}.${key}`;
    return new SettingsError(message, setting, this.settings.sourceOf(setting) ?? 'file');
  }
}
