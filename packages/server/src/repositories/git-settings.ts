/**
 * The Git backend's settings, with Spring's names and defaults (docs/git.md, docs/repositories.md), and the
 * properties a named repository (`repos.<name>.*`) accepts; default-repository-settings.ts and
 * named-repository-settings.ts read them.
 */
import type { SettingSpec } from '@confbus/core';

const git = 'spring.cloud.config.server.git';

export const gitSettingSpecs: readonly SettingSpec[] = [
  {
    key: `${git}.uri`,
    type: 'string',
    description:
      "Git repository with the configuration files (path, file://, git://, https://, ssh://, or Spring's file:./repo and file:/srv/repo; file: and relative paths are read under the working directory). Required, unless the native profile (spring.profiles.active=native) or confbus.server.sample-repository=true chooses another source",
  },
  {
    key: `${git}.default-label`,
    type: 'string',
    default: 'main',
    description: "Label served when a request names none (Spring's default since 3.1; see try-master-branch)",
  },
  {
    key: `${git}.search-paths`,
    type: 'list',
    default: [],
    description:
      'Extra directories to search, comma list; {application}, {profile}, {label} and * / ** allowed',
  },
  {
    key: `${git}.refresh-rate`,
    type: 'integer',
    default: 0,
    description:
      'Seconds between upstream checks; 0 = every request (concurrent requests share one check); <0 = never',
  },
  {
    key: `${git}.basedir`,
    type: 'string',
    description:
      'Where the local mirror is kept (default <cache>/mirrors/<hash of uri>: $CACHE_DIRECTORY, $XDG_CACHE_HOME/confbus or ~/.cache/confbus, else <tmp>/confbus-<uid>; see docs/deploy.md). An existing directory must be empty or a clone or mirror of the uri (adopted, e.g. the one Spring Cloud Config used); anything else stops the start',
  },
  {
    key: `${git}.timeout`,
    type: 'integer',
    default: 5,
    description:
      'Seconds a git network operation may go without receiving anything (progress included) before it is cut; a transfer that keeps moving takes as long as it needs',
  },
  {
    key: `${git}.clone-on-start`,
    type: 'boolean',
    default: false,
    description:
      'Clone at startup, so a bad uri fails the start instead of the first request; the HTTP port opens at once and health reports the repository not yet available until the clone has landed',
  },
  { key: `${git}.username`, type: 'string', description: 'User for an HTTPS remote' },
  {
    key: `${git}.password`,
    type: 'string',
    secret: true,
    description: 'Password or token for an HTTPS remote',
  },
  ...gitSshSettingSpecs(),
  ...gitTransportSettingSpecs(),
  {
    key: `${git}.repos`,
    type: 'string',
    isPrefix: true,
    description:
      "More repositories, repos.<name>.uri|pattern|search-paths|username|password|default-label|clone-on-start|timeout|refresh-rate, or Spring's shortcut repos.<name>=<uri> (see docs/repositories.md)",
  },
  {
    key: `${git}.continue-on-multiple-label-failure`,
    type: 'boolean',
    default: false,
    description:
      'In a multi-label request (/{name}/{profile}/{label1},{label2}), skip labels that cannot be served instead of failing',
  },
];

/** Bounds the mirrors a `{application}` uri may make (not a Spring setting). */
export const placeholderRepositorySettingSpecs: readonly SettingSpec[] = [
  {
    key: 'confbus.server.git.max-placeholder-repositories',
    type: 'integer',
    default: 50,
    description:
      'Most mirrors made from one uri with {application}/{profile}/{label} kept at once; the least recently used is closed and removed',
  },
];

/** SSH as Spring configures it (packages/server/src/git/ssh.ts; docs/git.md). */
function gitSshSettingSpecs(): SettingSpec[] {
  return [
    {
      key: `${git}.ignore-local-ssh-settings`,
      type: 'boolean',
      default: false,
      description:
        "true: ignore the machine's ssh setup (~/.ssh) and use private-key, host-key and known-hosts-file below",
    },
    {
      key: `${git}.private-key`,
      type: 'string',
      secret: true,
      description:
        'SSH private key (PEM, or OpenSSH format without a passphrase); used with ignore-local-ssh-settings=true',
    },
    {
      key: `${git}.passphrase`,
      type: 'string',
      secret: true,
      description: 'Passphrase of an encrypted PEM private-key (decrypted in memory, never written)',
    },
    {
      key: `${git}.host-key`,
      type: 'string',
      description: "The SSH server's public host key (base64, as in known_hosts); needs host-key-algorithm",
    },
    {
      key: `${git}.host-key-algorithm`,
      type: 'string',
      description:
        'Algorithm of host-key: ssh-dss, ssh-rsa, ssh-ed25519, ecdsa-sha2-nistp256, ecdsa-sha2-nistp384 or ecdsa-sha2-nistp521',
    },
    {
      key: `${git}.known-hosts-file`,
      type: 'string',
      description: 'A known_hosts file to check the SSH server against (must exist)',
    },
    {
      key: `${git}.strict-host-key-checking`,
      type: 'boolean',
      default: true,
      description: "false: accept any SSH host key (the server's identity is not checked)",
    },
    {
      key: `${git}.preferred-authentications`,
      type: 'string',
      description: 'SSH authentication methods in order, e.g. publickey (ssh PreferredAuthentications)',
    },
  ];
}

/** Branch handling, TLS and proxy of the Git transport, as Spring's JGitEnvironmentProperties (docs/git.md). */
function gitTransportSettingSpecs(): SettingSpec[] {
  const proxy = (scheme: 'http' | 'https'): SettingSpec[] => [
    { key: `${git}.proxy.${scheme}.host`, type: 'string', description: `HTTP proxy for ${scheme}:// uris` },
    {
      key: `${git}.proxy.${scheme}.port`,
      type: 'integer',
      description: `Port of the ${scheme} proxy (default 80)`,
    },
    { key: `${git}.proxy.${scheme}.username`, type: 'string', description: `User for the ${scheme} proxy` },
    {
      key: `${git}.proxy.${scheme}.password`,
      type: 'string',
      secret: true,
      description: `Password for the ${scheme} proxy`,
    },
    {
      key: `${git}.proxy.${scheme}.non-proxy-hosts`,
      type: 'string',
      description: `Hosts reached without the ${scheme} proxy, e.g. *.internal|localhost`,
    },
  ];
  return [
    {
      key: `${git}.try-master-branch`,
      type: 'boolean',
      default: true,
      description: "When there is no 'main' branch, 'main' (asked for or the default label) serves 'master'",
    },
    {
      key: `${git}.delete-untracked-branches`,
      type: 'boolean',
      default: false,
      description:
        'true: a branch deleted upstream is deleted from the mirror too; false (as Spring): it keeps being served',
    },
    {
      key: `${git}.force-pull`,
      type: 'boolean',
      default: false,
      description:
        'Accepted for Spring compatibility; the mirror has no working tree to be dirty, so it always follows the remote (as force-pull=true)',
    },
    {
      key: `${git}.skip-ssl-validation`,
      type: 'boolean',
      default: false,
      description:
        "true: do not verify the https server's certificate (unsafe; prefer GIT_SSL_CAINFO with its CA)",
    },
    ...proxy('http'),
    ...proxy('https'),
  ];
}

/** The properties a named repository accepts, keyed without dashes (relaxed names: searchPaths, search-paths). */
export const NAMED_REPOSITORY_PROPERTIES = [
  'uri',
  'pattern',
  'searchpaths',
  'username',
  'password',
  'defaultlabel',
  'cloneonstart',
  'timeout',
  'refreshrate',
  'trymasterbranch',
  'deleteuntrackedbranches',
  'skipsslvalidation',
  'forcepull',
  'privatekey',
  'passphrase',
  'hostkey',
  'hostkeyalgorithm',
  'knownhostsfile',
  'stricthostkeychecking',
  'ignorelocalsshsettings',
  'preferredauthentications',
  ...(['http', 'https'] as const).flatMap(
    (scheme) =>
      [
        `proxy${scheme}host`,
        `proxy${scheme}port`,
        `proxy${scheme}username`,
        `proxy${scheme}password`,
        `proxy${scheme}nonproxyhosts`,
      ] as const,
  ),
] as const;
/** Spring repository properties confbus does not implement, with the default repository's verdict. */
export const UNSUPPORTED_NAMED_PROPERTIES = new Map([['clonesubmodules', `${git}.clone-submodules`]]);
export type NamedRepositoryProperty = (typeof NAMED_REPOSITORY_PROPERTIES)[number];
