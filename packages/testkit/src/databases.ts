/**
 * A database of its own for each test, on the servers this machine runs (PostgreSQL 127.0.0.1:5432 user
 * postgres, trust; MariaDB 127.0.0.1:3306 root, empty password; Redis 127.0.0.1:6379), dropped afterwards.
 * Redis has no databases to make, and Spring's Redis keys are the applications' names: a test gets a name
 * prefix for its applications and removes the keys under it.
 */
import { randomBytes } from 'node:crypto';

export const POSTGRES = { host: '127.0.0.1', port: 5432, user: 'postgres' } as const;
export const MARIADB = { host: '127.0.0.1', port: 3306, user: 'root', password: '' } as const;
export const REDIS_URL = 'redis://127.0.0.1:6379';

export interface TestDatabase {
  /** spring.datasource.url for it. */
  url: string;
  name: string;
  /** Runs SQL statements in order (no parameters: test fixtures). */
  execute(...statements: string[]): Promise<void>;
  drop(): Promise<void>;
}

const uniqueName = (prefix: string): string => `${prefix}_${randomBytes(5).toString('hex')}`;

export async function createPostgresDatabase(): Promise<TestDatabase> {
  const { default: pg } = await import('pg');
  const name = uniqueName('confbus_test');
  const admin = new pg.Client({ ...POSTGRES, database: 'postgres' });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const client = new pg.Client({ ...POSTGRES, database: name });
  await client.connect();
  return {
    url: `jdbc:postgresql://${POSTGRES.host}:${POSTGRES.port}/${name}`,
    name,
    async execute(...statements) {
      for (const statement of statements) await client.query(statement);
    },
    async drop() {
      await client.end().catch(() => undefined);
      const dropper = new pg.Client({ ...POSTGRES, database: 'postgres' });
      await dropper.connect();
      try {
        await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await dropper.end();
      }
    },
  };
}

export async function createMariaDbDatabase(): Promise<TestDatabase> {
  const mysql = await import('mysql2/promise');
  const name = uniqueName('confbus_test');
  const connection = await mysql.createConnection({ ...MARIADB, multipleStatements: false });
  await connection.query(`CREATE DATABASE ${name}`);
  await connection.query(`USE ${name}`);
  return {
    url: `jdbc:mariadb://${MARIADB.host}:${MARIADB.port}/${name}`,
    name,
    async execute(...statements) {
      for (const statement of statements) await connection.query(statement);
    },
    async drop() {
      await connection.query(`DROP DATABASE IF EXISTS ${name}`);
      await connection.end();
    },
  };
}

export interface TestRedis {
  /** Prefix every application name with this (`${prefix}foo`): the keys removed afterwards are under it. */
  prefix: string;
  hset(key: string, fields: Record<string, string>): Promise<void>;
  del(key: string): Promise<void>;
  drop(): Promise<void>;
}

export async function createRedisPrefix(): Promise<TestRedis> {
  const { createClient } = await import('@redis/client');
  const client = createClient({ url: REDIS_URL });
  await client.connect();
  const prefix = `${uniqueName('confbus-test')}-`;
  return {
    prefix,
    async hset(key, fields) {
      await client.hSet(key, fields);
    },
    async del(key) {
      await client.del(key);
    },
    async drop() {
      for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 100 })) {
        if (keys.length > 0) await client.del(keys);
      }
      await client.close();
    },
  };
}
