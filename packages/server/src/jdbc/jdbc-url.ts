/**
 * Spring Boot's `spring.datasource.url` as a Node driver needs it. Only the drivers confbus ships are
 * understood (jdbc:postgresql, jdbc:mariadb, jdbc:mysql); any other URL stops the start, naming the setting.
 * Driver-specific URL parameters other than user, password and ssl are ignored (they tune Java's drivers).
 */
import { ConfbusError, coreErrors } from '@confbus/core';

export type JdbcDialect = 'postgresql' | 'mysql';

export interface JdbcTarget {
  dialect: JdbcDialect;
  host: string;
  port: number;
  database: string;
  user: string | undefined;
  password: string | undefined;
  ssl: boolean;
  /** `jdbc:postgresql://127.0.0.1:5432/config`, without parameters or credentials: health and errors. */
  display: string;
}

const DEFAULT_PORTS: Record<string, number> = { postgresql: 5432, mariadb: 3306, mysql: 3306 };

export function parseJdbcUrl(
  url: string,
  credentials: { username?: string | undefined; password?: string | undefined } = {},
): JdbcTarget {
  const match = /^jdbc:(postgresql|mariadb|mysql):\/\/([^/?]*)(?:\/([^?]*))?(?:\?(.*))?$/i.exec(url.trim());
  if (!match) {
    const scheme = /^jdbc:([a-z0-9]+):/i.exec(url)?.[1];
    throw new ConfbusError(
      coreErrors.CONFBUS_BAD_SETTING,
      `spring.datasource.url: ${scheme ? `jdbc:${scheme} is not a database confbus reads` : 'not a JDBC URL'}` +
        ' (jdbc:postgresql://host[:port]/database, jdbc:mariadb://… or jdbc:mysql://…)',
    );
  }
  const scheme = match[1]!.toLowerCase();
  // A list of hosts (fail-over) is Java-driver tuning: the first one is used.
  const authority = (match[2] ?? '').split(',')[0]!;
  const { host, port } = hostAndPort(authority, DEFAULT_PORTS[scheme]!);
  const parameters = new URLSearchParams((match[4] ?? '').replace(/;/g, '&'));
  const ssl = parameters.get('ssl') ?? parameters.get('useSSL') ?? parameters.get('sslmode');
  const database = decodeURIComponent(match[3] ?? '');
  return {
    dialect: scheme === 'postgresql' ? 'postgresql' : 'mysql',
    host,
    port,
    database,
    user: credentials.username ?? parameters.get('user') ?? undefined,
    password: credentials.password ?? parameters.get('password') ?? undefined,
    ssl: ssl !== null && !['false', 'disable', 'allow', 'prefer'].includes(ssl.toLowerCase()),
    display: `jdbc:${scheme}://${host}:${port}/${database}`,
  };
}

function hostAndPort(authority: string, defaultPort: number): { host: string; port: number } {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(authority);
  if (bracketed) return { host: bracketed[1]!, port: Number(bracketed[2] ?? defaultPort) };
  const [host, port] = authority.split(':');
  return { host: host || 'localhost', port: port ? Number(port) : defaultPort };
}
