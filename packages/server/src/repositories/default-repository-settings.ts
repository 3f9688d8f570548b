/**
 * The default repository (`spring.cloud.config.server.git.*`) read into a RepositoryDefinition, the shape every
 * repository served takes (named-repository-settings.ts reads the named ones into it). Apart from
 * repository-settings.ts so that both readers share the definition without importing each other.
 */
import { type Settings, SettingsError } from '@confbus/core';
import type { ProxySettings, SshSettings } from '../git/index.js';
import { uriTemplateProblem } from './uri-template.js';

export const GIT = 'spring.cloud.config.server.git';

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
  /** The key that set timeoutSeconds: a timeout error names it. */
  timeoutSetting: string;
  refreshRateSeconds: number;
  tryMasterBranch: boolean;
  deleteUntrackedBranches: boolean;
  skipSslValidation: boolean;
  proxy: { http: ProxySettings; https: ProxySettings };
  ssh: SshSettings;
}

export function defaultRepositoryDefinition(settings: Settings, uri: string): RepositoryDefinition {
  requirePathOnlyTemplate(uri, `${GIT}.uri`, settings);
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
    timeoutSetting: `${GIT}.timeout`,
    refreshRateSeconds: settings.number(`${GIT}.refresh-rate`),
    tryMasterBranch: settings.boolean(`${GIT}.try-master-branch`),
    deleteUntrackedBranches: settings.boolean(`${GIT}.delete-untracked-branches`),
    skipSslValidation: settings.boolean(`${GIT}.skip-ssl-validation`),
    proxy: { http: proxySettings(settings, 'http'), https: proxySettings(settings, 'https') },
    ssh: {
      privateKey: settings.optionalString(`${GIT}.private-key`),
      passphrase: settings.optionalString(`${GIT}.passphrase`),
      hostKey: settings.optionalString(`${GIT}.host-key`),
      hostKeyAlgorithm: settings.optionalString(`${GIT}.host-key-algorithm`),
      knownHostsFile: settings.optionalString(`${GIT}.known-hosts-file`),
      strictHostKeyChecking: settings.boolean(`${GIT}.strict-host-key-checking`),
      ignoreLocalSshSettings: settings.boolean(`${GIT}.ignore-local-ssh-settings`),
      preferredAuthentications: settings.optionalString(`${GIT}.preferred-authentications`),
    },
  };
}

function proxySettings(settings: Settings, scheme: 'http' | 'https'): ProxySettings {
  const key = `${GIT}.proxy.${scheme}`;
  return {
    host: settings.optionalString(`${key}.host`),
    port: settings.get(`${key}.port`) === undefined ? undefined : settings.number(`${key}.port`),
    username: settings.optionalString(`${key}.username`),
    password: settings.optionalString(`${key}.password`),
    nonProxyHosts: settings.optionalString(`${key}.non-proxy-hosts`),
  };
}

/** Throws the settings error for a uri template with a placeholder outside its path, naming `key`. */
export function requirePathOnlyTemplate(uri: string, key: string, settings: Settings): void {
  const problem = uriTemplateProblem(uri);
  if (problem !== undefined)
    throw new SettingsError(`${settings.spellingOf(key)}: ${problem}`, key, settings.sourceOf(key) ?? 'file');
}
