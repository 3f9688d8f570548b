/**
 * The database drivers behind the JDBC backend, as one small interface: run a query with JDBC's `?`
 * parameters and return each row's first two columns, as Spring's PropertiesResultSetExtractor reads them
 * (rs.getString(1), rs.getString(2)).
 *
 * Drivers: `pg` (node-postgres) for PostgreSQL, the one maintained pure-JavaScript driver everyone uses; `mysql2`
 * for MariaDB and MySQL. `mariadb` (MariaDB's own connector) was the other choice: both are maintained, pure
 * JavaScript and speak both servers, but mysql2 is tested by its maintainers against MySQL 8's default
 * authentication as well as MariaDB and is used about twenty times as widely, so a MySQL shop and a MariaDB shop
 * get the same well-trodden driver. Both are regular dependencies, loaded (import()) only when the jdbc profile
 * is on: a Git server never loads them.
 */
import type { JdbcTarget } from './jdbc-url.js';

export interface SqlClient {
  /** The rows' first two columns as text (null stays null), in the order the database returns them. */
  pairs(sql: string, parameters: readonly string[]): Promise<Array<[string | null, string | null]>>;
  ping(): Promise<void>;
  /** PostgreSQL only: calls `onNotify` for each NOTIFY on `channel`, over a connection of its own. */
  listen?(channel: string, onNotify: () => void, onError: (error: unknown) => void): Promise<void>;
  close(): Promise<void>;
}

/** Pool size: a config server's queries are short and few at a time (checks are coalesced). */
const POOL_SIZE = 4;
const CONNECT_TIMEOUT_MS = 10_000;

export async function openSqlClient(target: JdbcTarget): Promise<SqlClient> {
  return target.dialect === 'postgresql' ? openPostgres(target) : openMysql(target);
}

/** JDBC's `?` placeholders as PostgreSQL's `$1…$n`, leaving quoted text and identifiers alone. */
export function postgresPlaceholders(sql: string): string {
  let n = 0;
  let quote: string | undefined;
  let out = '';
  for (const char of sql) {
    if (quote) {
      if (char === quote) quote = undefined;
    } else if (char === "'" || char === '"') {
      quote = char;
    } else if (char === '?') {
      out += `$${++n}`;
      continue;
    }
    out += char;
  }
  return out;
}

function text(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (Buffer.isBuffer(value)) return value.toString('utf8');
  if (value instanceof Date) return value.toISOString();
  return String(value);
}

function firstTwo(row: readonly unknown[]): [string | null, string | null] {
  return [text(row[0]), text(row[1])];
}

async function openPostgres(target: JdbcTarget): Promise<SqlClient> {
  const { default: pg } = await import('pg');
  const config = {
    host: target.host,
    port: target.port,
    database: target.database,
    user: target.user,
    password: target.password,
    ssl: target.ssl,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  };
  const pool = new pg.Pool({ ...config, max: POOL_SIZE });
  // An idle connection the server drops is not an error of a request: the pool opens another.
  pool.on('error', () => undefined);
  const statements = new Map<string, string>();
  let listener: InstanceType<typeof pg.Client> | undefined;
  return {
    async pairs(sql, parameters) {
      let converted = statements.get(sql);
      if (converted === undefined) {
        converted = postgresPlaceholders(sql);
        statements.set(sql, converted);
      }
      const result = await pool.query({ text: converted, values: [...parameters], rowMode: 'array' });
      return (result.rows as unknown[][]).map(firstTwo);
    },
    async ping() {
      await pool.query('SELECT 1');
    },
    async listen(channel, onNotify, onError) {
      const client = new pg.Client(config);
      client.on('error', onError);
      client.on('notification', (message) => message.channel === channel && onNotify());
      await client.connect();
      await client.query(`LISTEN ${quoteIdentifier(channel)}`);
      listener = client;
    },
    async close() {
      await listener?.end().catch(() => undefined);
      await pool.end();
    },
  };
}

async function openMysql(target: JdbcTarget): Promise<SqlClient> {
  const mysql = await import('mysql2/promise');
  const pool = mysql.createPool({
    host: target.host,
    port: target.port,
    database: target.database,
    ...(target.user !== undefined ? { user: target.user } : {}),
    ...(target.password !== undefined ? { password: target.password } : {}),
    ...(target.ssl ? { ssl: {} } : {}),
    connectionLimit: POOL_SIZE,
    connectTimeout: CONNECT_TIMEOUT_MS,
    // Text as the database holds it: no Date or number conversion before getString's view of it.
    dateStrings: true,
    supportBigNumbers: true,
    bigNumberStrings: true,
  });
  return {
    async pairs(sql, parameters) {
      const [rows] = await pool.query({ sql, rowsAsArray: true }, [...parameters]);
      return (rows as unknown[][]).map(firstTwo);
    },
    async ping() {
      await pool.query('SELECT 1');
    },
    async close() {
      await pool.end();
    },
  };
}

/** A PostgreSQL identifier, quoted (LISTEN takes no parameter). */
function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
