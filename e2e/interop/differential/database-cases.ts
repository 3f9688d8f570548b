/**
 * The rows and hashes the database backends of the differential test serve (issue #25), loaded once for both
 * servers: the same table rows in PostgreSQL and in MariaDB (Spring's default PROPERTIES table), the same
 * hashes in Redis (one per `{application}` and `{application}-{profile}`, as RedisEnvironmentRepository reads
 * them), and the requests asked of each backend. The cases: profile and profile-less rows for the application
 * and for `application`, a second label, the `default` profile, several profiles and labels, an application
 * with no rows, values with placeholders (with and without spaces in the braces), dotted and indexed keys, keys
 * that are numbers (a JavaScript object would put them first), a key that is both a value and a parent, a
 * null value, a `{cipher}` value (its ciphertext is made by the running server, so it is added by the test).
 */

/** One row of PROPERTIES: application, profile (null: the rows Spring reads with sql-without-profile), label. */
export type Row = readonly [
  app: string,
  profile: string | null,
  label: string,
  key: string,
  value: string | null,
];

export const DB_APP = 'orders';

export const rows: readonly Row[] = [
  [DB_APP, null, 'master', 'greeting', 'hello'],
  [DB_APP, null, 'master', 'server.port', '8080'],
  [DB_APP, null, 'master', 'spaced', '${ greeting } world'],
  [DB_APP, null, 'master', 'list[0]', 'one'],
  [DB_APP, null, 'master', 'list[1]', '${greeting}'],
  [DB_APP, null, 'master', '10', 'ten'],
  [DB_APP, null, 'master', '2', 'two'],
  [DB_APP, null, 'master', 'nested.a.b', 'deep'],
  [DB_APP, null, 'master', 'flag', 'true'],
  [DB_APP, null, 'master', 'empty', ''],
  [DB_APP, null, 'master', 'nothing', null],
  [DB_APP, 'dev', 'master', 'greeting', 'hello from dev'],
  [DB_APP, 'dev', 'master', 'db.url', 'jdbc:postgresql://${db.host:localhost}/orders'],
  [DB_APP, 'dev', 'master', 'compound', 'value'],
  [DB_APP, 'dev', 'master', 'compound.child', 'child'],
  [DB_APP, 'dev', 'master', 'multi', 'line one\nline two'],
  [DB_APP, 'dev', 'master', 'quoted', 'say "hi" \\now'],
  [DB_APP, 'prod', 'master', 'greeting', 'hello from prod'],
  [DB_APP, 'prod', 'master', 'server.port', '443'],
  [DB_APP, 'default', 'master', 'from.default', 'default profile row'],
  [DB_APP, 'dev', 'release', 'greeting', 'hello from release'],
  [DB_APP, null, 'release', 'server.port', '9090'],
  ['application', null, 'master', 'shared', 'for everyone'],
  ['application', null, 'master', 'greeting', 'hello from application'],
  ['application', 'dev', 'master', 'shared.dev', 'for every dev'],
  ['application', 'default', 'master', 'shared.default', 'application default'],
  ['other', 'dev', 'master', 'only', 'a profile row'],
];

/** Environment requests asked of the JDBC pairs (and the composite one); renderings are asked for beside. */
export const jdbcRequests: readonly string[] = [
  `/${DB_APP}/dev`,
  `/${DB_APP}/dev/master`,
  `/${DB_APP}/default/master`,
  `/${DB_APP}/prod/master`,
  `/${DB_APP}/dev,prod/master`,
  `/${DB_APP}/prod,dev/master`,
  `/${DB_APP}/dev/release`,
  `/${DB_APP}/dev/master,release`,
  `/${DB_APP}/dev/nolabel`,
  '/application/dev/master',
  '/application/default/master',
  '/other/dev/master',
  '/other/default/master',
  '/nobody/dev/master',
];

/** Requests to the composites with a member down. */
export const memberDownRequests: readonly string[] = [
  `/${DB_APP}/dev/master`,
  `/${DB_APP}/default`,
  `/master/${DB_APP}-dev.yml`,
  `/master/${DB_APP}-dev.properties`,
];

/** `/{label}/{application}-{profiles}.{format}` for every format. */
export const jdbcRenderings: readonly string[] = [
  `/master/${DB_APP}-dev`,
  `/master/${DB_APP}-default`,
  `/master/${DB_APP}-dev,prod`,
  `/release/${DB_APP}-dev`,
].flatMap((path) => ['yml', 'properties', 'json'].map((format) => `${path}.${format}`));

/** Redis hashes, keyed without the test's prefix (added in front of the application name). */
export const hashes: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  [DB_APP]: {
    greeting: 'hello',
    'server.port': '8080',
    spaced: '${ greeting } world',
    'list[0]': 'one',
    'list[1]': '${greeting}',
    '10': 'ten',
    '2': 'two',
  },
  [`${DB_APP}-dev`]: { greeting: 'hello from dev', compound: 'value', 'compound.child': 'child' },
  [`${DB_APP}-prod`]: { greeting: 'hello from prod' },
  application: { shared: 'not read by Redis' },
};

/** Redis requests, the application name without the prefix (the test adds it). */
export const redisRequests = (prefix: string): readonly string[] => [
  `/${prefix}${DB_APP}/dev`,
  `/${prefix}${DB_APP}/dev/master`,
  `/${prefix}${DB_APP}/default`,
  `/${prefix}${DB_APP}/dev,prod`,
  `/${prefix}${DB_APP}/dev/release`,
  `/${prefix}nobody/dev`,
];

export const redisRenderings = (prefix: string): readonly string[] =>
  [`/master/${prefix}${DB_APP}-dev`, `/master/${prefix}${DB_APP}-dev,prod`].flatMap((path) =>
    ['yml', 'properties', 'json'].map((format) => `${path}.${format}`),
  );

/**
 * INSERT statements for the rows, with the database's identifier quote; MariaDB reads a backslash in a string
 * literal as an escape (PostgreSQL does not), so it is doubled there.
 */
export function insertStatements(quote: string, extra: readonly Row[] = []): string[] {
  const escaped = (text: string) => (quote === '`' ? text.replace(/\\/g, '\\\\') : text);
  const literal = (text: string | null) =>
    text === null ? 'null' : `'${escaped(text).replace(/'/g, "''")}'`;
  return [...rows, ...extra].map(
    ([app, profile, label, key, value]) =>
      `INSERT INTO PROPERTIES (APPLICATION, PROFILE, LABEL, ${quote}KEY${quote}, ${quote}VALUE${quote}) ` +
      `VALUES (${literal(app)}, ${literal(profile)}, ${literal(label)}, ${literal(key)}, ${literal(value)})`,
  );
}

/** Spring's PROPERTIES table, with the database's identifier quote. */
export function createTable(quote: string): string {
  return (
    `CREATE TABLE PROPERTIES (APPLICATION VARCHAR(128), PROFILE VARCHAR(128), LABEL VARCHAR(128), ` +
    `${quote}KEY${quote} VARCHAR(256), ${quote}VALUE${quote} VARCHAR(4096))`
  );
}
