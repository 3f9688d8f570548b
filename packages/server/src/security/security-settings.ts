/**
 * Who may call the server (docs/security.md), read once: the one Spring user (spring.security.user.*, every
 * application and the admin role, as before), the clients of confbus.security.clients.<name>.* (each its own
 * credentials, applications and roles), which routes stay open, and how failed logins are slowed.
 */
import { type SettingSpec, type Settings, SettingsError } from '@confbus/core';
import { splitList } from '@confbus/core/internal';
import { ALL_GRANTS, type PrincipalGrants, ROLES, type Role } from './principal.js';
import { type SecretEncoding, StoredSecret } from './stored-secret.js';

export const CLIENTS = 'confbus.security.clients';

export const securitySettingSpecs: readonly SettingSpec[] = [
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
    description:
      'HTTP basic auth password ({bcrypt}… and {noop}… read as Spring Security does); when set, every endpoint needs credentials except the open ones below. This user reads every application and is admin',
  },
  {
    key: CLIENTS,
    type: 'string',
    isPrefix: true,
    description:
      'Clients with their own credentials and grants: <name>.username (default <name>), <name>.password ({bcrypt}…, {noop}… or the text) or <name>.token (bearer; the text or {sha256}<hex>), <name>.applications / profiles / labels (patterns with *), <name>.roles (viewer, operator, admin); see docs/security.md',
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
  {
    key: 'confbus.security.max-login-failures',
    type: 'integer',
    default: 10,
    min: 1,
    description:
      'Failed logins from one address within confbus.security.login-failure-window before further attempts get 429 with Retry-After',
  },
  {
    key: 'confbus.security.login-failure-window',
    type: 'integer',
    default: 60,
    min: 1,
    max: 86_400,
    description: 'Seconds over which failed logins from one address are counted (and blocked, once too many)',
  },
];

/** One credential: a user name and password (basic auth) or a bearer token, with what it may do. */
export interface ClientCredential {
  /** The client's name in the settings (`spring.security.user` for the Spring user). */
  readonly settingPrefix: string;
  /** Who the audit log names: the user name, or the client's name for a token. */
  readonly name: string;
  readonly username: string | undefined;
  readonly password: StoredSecret | undefined;
  readonly token: StoredSecret | undefined;
  readonly grants: PrincipalGrants;
}

export interface SecuritySettings {
  /** Every credential accepted; empty when security is off (no password, no client). */
  readonly credentials: readonly ClientCredential[];
  /** /actuator/health and the probes answer without credentials. */
  readonly healthOpen: boolean;
  /** POST /monitor answers without credentials (webhooks carry their own signatures). */
  readonly monitorOpen: boolean;
  readonly maxLoginFailures: number;
  readonly loginFailureWindowSeconds: number;
}

const PASSWORD_ENCODINGS: readonly SecretEncoding[] = ['bcrypt', 'noop'];
const TOKEN_ENCODINGS: readonly SecretEncoding[] = ['noop', 'sha256'];
const PROPERTIES = ['username', 'password', 'token', 'applications', 'profiles', 'labels', 'roles'] as const;
type Property = (typeof PROPERTIES)[number];
const SINGLE: ReadonlySet<Property> = new Set(['username', 'password', 'token']);

export function readSecuritySettings(settings: Settings): SecuritySettings {
  const credentials: ClientCredential[] = [];
  const password = settings.optionalString('spring.security.user.password') ?? '';
  // An empty password would let an empty Authorization through: not "on".
  if (password !== '') {
    const username = settings.string('spring.security.user.name');
    credentials.push({
      settingPrefix: 'spring.security.user',
      name: username,
      username,
      password: secretOf(settings, 'spring.security.user.password', password, PASSWORD_ENCODINGS),
      token: undefined,
      grants: ALL_GRANTS,
    });
  }
  credentials.push(...readClients(settings));
  const usernames = new Set<string>();
  for (const credential of credentials) {
    if (credential.username === undefined) continue;
    if (usernames.has(credential.username))
      throw new SettingsError(
        `${credential.settingPrefix}.username: user name '${credential.username}' is given to two credentials`,
        `${credential.settingPrefix}.username`,
        settings.sourceOf(`${credential.settingPrefix}.username`) ?? 'file',
      );
    usernames.add(credential.username);
  }
  return {
    credentials,
    healthOpen: settings.boolean('confbus.security.health-open'),
    monitorOpen: settings.boolean('confbus.security.monitor-open'),
    maxLoginFailures: settings.number('confbus.security.max-login-failures'),
    loginFailureWindowSeconds: settings.number('confbus.security.login-failure-window'),
  };
}

/** `confbus.security.clients.<name>.<property>` (lists as `applications[0]` or comma-separated). */
function readClients(settings: Settings): ClientCredential[] {
  const raw = new Map<string, Map<Property, { key: string; values: string[] }>>();
  for (const key of settings.keysUnder(`${CLIENTS}.`)) {
    const spelled = settings.spellingOf(key);
    const rest = spelled.slice(CLIENTS.length + 1);
    const dot = rest.lastIndexOf('.');
    const name = rest.slice(0, dot);
    const property = rest
      .slice(dot + 1)
      .replace(/\[\d+\]$/, '')
      .replace(/[-_]/g, '')
      .toLowerCase() as Property;
    if (dot <= 0 || !PROPERTIES.includes(property))
      throw new SettingsError(
        `${spelled}: expected ${CLIENTS}.<name>.(${PROPERTIES.join('|')})`,
        key,
        settings.sourceOf(key) ?? 'file',
      );
    const value = settings.get(key);
    // A password or token is taken whole (it may hold commas or spaces); the grants are lists.
    const values = Array.isArray(value)
      ? value.map(String)
      : SINGLE.has(property)
        ? [String(value ?? '')]
        : splitList(String(value ?? ''));
    const properties = raw.get(name) ?? new Map();
    const previous = properties.get(property);
    properties.set(property, { key, values: [...(previous?.values ?? []), ...values] });
    raw.set(name, properties);
  }
  return [...raw].map(([name, properties]) => clientCredential(settings, name, properties));
}

function clientCredential(
  settings: Settings,
  name: string,
  properties: Map<Property, { key: string; values: string[] }>,
): ClientCredential {
  const prefix = `${CLIENTS}.${name}`;
  const bad = (property: Property, message: string): SettingsError => {
    const key = properties.get(property)?.key ?? `${prefix}.${property}`;
    return new SettingsError(`${prefix}.${property}: ${message}`, key, settings.sourceOf(key) ?? 'file');
  };
  const one = (property: Property): string | undefined => {
    const value = properties.get(property)?.values[0];
    return value === '' ? undefined : value;
  };
  const list = (property: Property): string[] => properties.get(property)?.values ?? [];
  const passwordText = one('password');
  const tokenText = one('token');
  if (passwordText === undefined && tokenText === undefined)
    throw bad('password', 'a client needs a password or a token');
  const secret = (property: Property, text: string | undefined, allowed: readonly SecretEncoding[]) => {
    if (text === undefined) return undefined;
    const parsed = StoredSecret.parse(text, allowed);
    if ('problem' in parsed) throw bad(property, parsed.problem);
    return parsed.secret;
  };
  const roles = list('roles').map((role) => role.toLowerCase());
  for (const role of roles)
    if (!(ROLES as readonly string[]).includes(role))
      throw bad('roles', `'${role}' is not a role (${ROLES.join(', ')})`);
  const username = one('username') ?? (passwordText === undefined ? undefined : name);
  return {
    settingPrefix: prefix,
    name: username ?? name,
    username,
    password: secret('password', passwordText, PASSWORD_ENCODINGS),
    token: secret('token', tokenText, TOKEN_ENCODINGS),
    grants: {
      applications: list('applications'),
      profiles: list('profiles'),
      labels: list('labels'),
      roles: roles as Role[],
    },
  };
}

/** The Spring user's password: `{bcrypt}`/`{noop}` as Spring Boot reads them; any other text as written. */
function secretOf(
  settings: Settings,
  key: string,
  value: string,
  allowed: readonly SecretEncoding[],
): StoredSecret {
  const encoded = /^\{(bcrypt|noop)\}/.test(value);
  const parsed = StoredSecret.parse(encoded ? value : `{noop}${value}`, allowed);
  if ('problem' in parsed)
    throw new SettingsError(`${key}: ${parsed.problem}`, key, settings.sourceOf(key) ?? 'file');
  return parsed.secret;
}
