/**
 * The JDBC backend's settings (`spring.profiles.active=jdbc`, docs/repositories.md), with Spring's names and
 * defaults (JdbcEnvironmentProperties): the two queries, the order in a composite, the default label, and
 * Spring Boot's datasource keys. `refresh-rate` and `notify-channel` are confbus's own (Spring reads the table
 * on every request and ignores both).
 */
import type { SettingSpec, Settings } from '@confbus/core';

export const JDBC = 'spring.cloud.config.server.jdbc';
const DATASOURCE = 'spring.datasource';

/** Spring's defaults: a table PROPERTIES(APPLICATION, PROFILE, LABEL, "KEY", "VALUE"). */
export const DEFAULT_SQL =
  'SELECT "KEY", "VALUE" from PROPERTIES where APPLICATION=? and PROFILE=? and LABEL=?';
export const DEFAULT_SQL_WITHOUT_PROFILE =
  'SELECT "KEY", "VALUE" from PROPERTIES where APPLICATION=? and PROFILE is null and LABEL=?';

/** Spring's EnvironmentRepositoryProperties.DEFAULT_ORDER (Ordered.LOWEST_PRECEDENCE). */
export const DEFAULT_ORDER = 2_147_483_647;

export const jdbcSettingSpecs: readonly SettingSpec[] = [
  {
    key: `${DATASOURCE}.url`,
    type: 'string',
    description:
      'With the jdbc profile: the database, as a JDBC URL: jdbc:postgresql://host[:port]/db, jdbc:mariadb://… or jdbc:mysql://… (user, password and ssl parameters accepted)',
  },
  {
    key: `${DATASOURCE}.username`,
    type: 'string',
    description: 'With the jdbc profile: the database user (else the URL’s user parameter)',
  },
  {
    key: `${DATASOURCE}.password`,
    type: 'string',
    secret: true,
    description: 'With the jdbc profile: the database password (else the URL’s password parameter)',
  },
  {
    key: `${JDBC}.sql`,
    type: 'string',
    default: DEFAULT_SQL,
    description:
      'With the jdbc profile: the query for {application}-{profile} rows (parameters application, profile, label); its first two columns are the key and the value',
  },
  {
    key: `${JDBC}.sql-without-profile`,
    type: 'string',
    default: DEFAULT_SQL_WITHOUT_PROFILE,
    description:
      'With the jdbc profile: the query for rows without a profile (parameters application, label). Setting only sql (not this) turns on Spring’s "incomplete" mode: profile default always included, no rows without profile',
  },
  {
    key: `${JDBC}.order`,
    type: 'integer',
    default: DEFAULT_ORDER - 10,
    description: 'Precedence among several backends (profiles jdbc with others): lower wins, as in Spring',
  },
  {
    key: `${JDBC}.default-label`,
    type: 'string',
    default: 'master',
    description: 'With the jdbc profile: the LABEL used when a request names none',
  },
  {
    key: `${JDBC}.fail-on-error`,
    type: 'boolean',
    default: true,
    description:
      'With the jdbc profile: false serves an environment without the sources whose query failed (Spring logs them at debug)',
  },
  {
    key: `${JDBC}.enabled`,
    type: 'boolean',
    default: true,
    description:
      'false: the jdbc profile serves nothing from the database (Spring’s switch); the server refuses to start then',
  },
  {
    key: `${JDBC}.refresh-rate`,
    type: 'integer',
    default: 0,
    description:
      'confbus: seconds between checks that the rows served are unchanged (0 = before every request, shared; <0 = only on POST /monitor or a notification). A change is served, and watchers and the bus told, after the check',
  },
  {
    key: `${JDBC}.notify-channel`,
    type: 'string',
    description:
      'confbus, PostgreSQL: a LISTEN channel; a NOTIFY on it (e.g. from a trigger on the table) checks at once (see docs/repositories.md)',
  },
];

export interface JdbcSettings {
  readonly url: string | undefined;
  readonly username: string | undefined;
  readonly password: string | undefined;
  readonly sql: string;
  readonly sqlWithoutProfile: string;
  readonly order: number;
  readonly defaultLabel: string;
  readonly failOnError: boolean;
  readonly enabled: boolean;
  readonly refreshRateSeconds: number;
  readonly notifyChannel: string | undefined;
}

export function readJdbcSettings(settings: Settings): JdbcSettings {
  return {
    url: settings.optionalString(`${DATASOURCE}.url`),
    username: settings.optionalString(`${DATASOURCE}.username`),
    password: settings.optionalString(`${DATASOURCE}.password`),
    sql: settings.string(`${JDBC}.sql`),
    sqlWithoutProfile: settings.string(`${JDBC}.sql-without-profile`),
    order: settings.number(`${JDBC}.order`),
    defaultLabel: settings.string(`${JDBC}.default-label`),
    failOnError: settings.boolean(`${JDBC}.fail-on-error`),
    enabled: settings.boolean(`${JDBC}.enabled`),
    refreshRateSeconds: settings.number(`${JDBC}.refresh-rate`),
    notifyChannel: settings.optionalString(`${JDBC}.notify-channel`),
  };
}
