/** Every setting the config server understands, with Spring's names and defaults. */
import { type SettingSpec, busSettingSpecs, settingsFileSpecs } from '@confbus/core';
import { serverEncryptionSettingSpecs } from '../encryption/encryption-settings.js';
import { WEBHOOK_SECRET_HOSTS } from '../monitor/webhook-signature.js';

const git = 'spring.cloud.config.server.git';

export const serverSettingSpecs: readonly SettingSpec[] = [
  ...settingsFileSpecs,
  {
    key: 'server.port',
    type: 'integer',
    default: 8888,
    min: 0,
    max: 65535,
    description: 'HTTP port (0 = any free port)',
  },
  { key: 'server.address', type: 'string', default: '0.0.0.0', description: 'Interface to listen on' },
  {
    key: 'spring.application.name',
    type: 'string',
    default: 'configserver',
    description: "The server's own name (its bus id starts with it)",
  },
  {
    key: `${git}.uri`,
    type: 'string',
    description:
      'Git repository with the configuration files (path, file://, git://, https://, ssh://). Unset: a sample repository is created under .confbus/',
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
      'Where the local mirror is kept (default .confbus/mirrors/<hash of uri> in the working directory). An existing directory must be empty or a clone or mirror of the uri (adopted, e.g. the one Spring Cloud Config used); anything else stops the start',
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
      'More repositories, repos.<name>.uri|pattern|search-paths|username|password|default-label|clone-on-start|timeout|refresh-rate (see docs/repositories.md)',
  },
  {
    key: `${git}.continue-on-multiple-label-failure`,
    type: 'boolean',
    default: false,
    description:
      'In a multi-label request (/{name}/{profile}/{label1},{label2}), skip labels that cannot be served instead of failing',
  },
  {
    key: 'spring.profiles.active',
    type: 'list',
    default: [],
    description: "The server's profiles: `native` serves folders (native.search-locations) instead of Git",
  },
  {
    key: 'spring.cloud.config.server.native.search-locations',
    type: 'list',
    default: ['file:./', 'file:./config/'],
    description:
      'With the native profile: folders to serve, in precedence order (later wins); file: paths, {application}/{profile}/{label} allowed',
  },
  {
    key: 'spring.cloud.config.server.native.default-label',
    type: 'string',
    default: 'master',
    description: 'With the native profile: the label (sub-folder) used when a request names none',
  },
  {
    key: 'spring.cloud.config.server.native.add-label-locations',
    type: 'boolean',
    default: true,
    description: 'With the native profile: also search <location>/<label>/ for each plain location',
  },
  {
    key: 'spring.cloud.config.server.overrides',
    type: 'string',
    isPrefix: true,
    description:
      'overrides.<key>=<value>: served first to every application as the `overrides` property source; ${...} passed through to clients',
  },
  {
    key: 'confbus.server.git.max-placeholder-repositories',
    type: 'integer',
    default: 50,
    description:
      'Most mirrors made from one uri with {application}/{profile}/{label} kept at once; the least recently used is closed and removed',
  },
  {
    key: 'spring.cloud.config.server.accept-empty',
    type: 'boolean',
    default: true,
    description: 'When false, an application with no configuration files answers 404',
  },
  {
    key: 'confbus.server.cache.max-entries',
    type: 'integer',
    default: 5000,
    description: 'Resolved environments kept in memory, keyed by (commit, application, profiles, label)',
  },
  {
    key: 'confbus.server.cache.max-bytes',
    type: 'integer',
    default: 268435456,
    description:
      'Estimated memory for resolved environments, and as much again for parsed files (least recently used go first)',
  },
  {
    key: 'confbus.server.max-file-bytes',
    type: 'integer',
    default: 1048576,
    description: 'Largest configuration file served; a larger one answers 500 CONFBUS_CONFIG_LIMIT naming it',
  },
  {
    key: 'confbus.server.max-environment-bytes',
    type: 'integer',
    default: 8388608,
    description:
      'Largest summed size of the files one environment is built from (500 CONFBUS_CONFIG_LIMIT beyond)',
  },
  {
    key: 'confbus.server.max-profiles',
    type: 'integer',
    default: 32,
    description: 'Most profiles one request may name',
  },
  {
    key: 'confbus.logging.access-log',
    type: 'boolean',
    default: false,
    description: 'Log one line per answered request (method, URL, status, milliseconds, remote address)',
  },
  {
    key: 'confbus.server.max-url-length',
    type: 'integer',
    default: 2048,
    description: 'Longest request URL accepted (414 beyond)',
  },
  {
    key: 'confbus.server.max-body-bytes',
    type: 'integer',
    default: 1048576,
    description: 'Largest request body accepted, e.g. a webhook (413 beyond)',
  },
  {
    key: 'confbus.server.max-header-bytes',
    type: 'integer',
    default: 16384,
    description: 'Largest request line plus headers accepted, in bytes (431 beyond)',
  },
  {
    key: 'confbus.server.refresh-events.max-events',
    type: 'integer',
    default: 200,
    description: 'Published refresh events remembered with their acks (GET /actuator/refresh-events)',
  },
  {
    key: 'confbus.server.refresh-events.max-acks-per-event',
    type: 'integer',
    default: 10000,
    description: 'Acks (one per service) recorded per refresh event; more are counted, not kept',
  },
  {
    key: 'confbus.server.refresh-events.max-bytes',
    type: 'integer',
    default: 16777216,
    description: 'Memory for recorded acks (estimated bytes); the oldest events are forgotten first',
  },
  {
    key: 'spring.security.user.name',
    type: 'string',
    default: 'user',
    description: 'HTTP basic auth user (only used when spring.security.user.password is set)',
  },
  {
    key: 'spring.security.user.password',
    type: 'string',
    secret: true,
    description: 'HTTP basic auth password; when set, every endpoint needs it except the open ones below',
  },
  {
    key: 'confbus.security.health-open',
    type: 'boolean',
    default: true,
    description: 'GET /actuator/health answers without credentials (for load balancers)',
  },
  {
    key: 'confbus.security.monitor-open',
    type: 'boolean',
    default: true,
    description: 'POST /monitor answers without credentials (webhooks authenticate with their own secrets)',
  },
  ...serverEncryptionSettingSpecs,
  ...busSettingSpecs,
  ...WEBHOOK_SECRET_HOSTS.map((host): SettingSpec => ({
    key: `confbus.monitor.${host}.secret`,
    type: 'string',
    secret: true,
    description: `Webhook secret for ${host} pushes to /monitor; when set, a missing or wrong signature gets 401`,
  })),
  {
    key: 'confbus.monitor.require-signature',
    type: 'boolean',
    default: false,
    description:
      'Reject /monitor requests that carry no verifiable signature (form posts, hosts without a secret)',
  },
  {
    key: 'confbus.monitor.allow-unsigned',
    type: 'boolean',
    default: false,
    description:
      'When a secret is set for any host, still accept /monitor requests that cannot be verified (form posts, simple bodies, hosts without a secret)',
  },
  {
    key: 'confbus.monitor.max-files',
    type: 'integer',
    default: 100,
    description:
      'Changed files (and guessed services) /monitor announces one by one; beyond, one refresh for every service (*)',
  },
  {
    key: 'confbus.console.enabled',
    type: 'boolean',
    default: true,
    description: 'Serve the operator console at /-/console/ and its JSON API at /-/console/api/',
  },
  {
    key: 'confbus.console.max-event-streams',
    type: 'integer',
    default: 64,
    description: 'Most console live-update streams (server-sent events) open at once (503 beyond)',
  },
  {
    key: 'confbus.console.watch-interval',
    type: 'integer',
    default: 10,
    description:
      'Seconds between upstream checks while a console is open, so a push shows without a webhook (0 = none; never when refresh-rate < 0)',
  },
  {
    key: 'confbus.console.presence-interval',
    type: 'integer',
    default: 60,
    description:
      'Seconds between presence requests on the bus; an instance not heard from for three intervals leaves the fleet view',
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
