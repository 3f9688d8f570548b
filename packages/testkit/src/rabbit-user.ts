/**
 * A RabbitMQ user of its own for one test, so a test can cut exactly that user off the bus and let it back in
 * on cue. While its permissions on the vhost are cleared the broker refuses its reconnects ("access to vhost
 * refused"), which makes "clients away from the bus for a while" deterministic instead of a race against a
 * reconnect delay; every other connection on the vhost (the server's, a test's tap) is untouched.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';

const run = promisify(execFile);

async function rabbitmqctl(...args: string[]): Promise<string> {
  const { stdout } = await run('rabbitmqctl', ['-q', ...args], { timeout: 60_000 });
  return stdout;
}

export interface TestRabbitUser {
  readonly username: string;
  /** Random per user; only ever passed through the environment of the processes that use it. */
  readonly password: string;
  readonly vhost: string;
  /** Clears the user's permissions on the vhost: new connections (and reconnects) of the user are refused. */
  revoke(): Promise<void>;
  /** Gives the user full permissions on the vhost again. */
  restore(): Promise<void>;
  /**
   * Sets the user's configure, write and read permissions on the vhost (regular expressions over resource
   * names, as rabbitmqctl takes them). The broker caches permission checks per channel: they hold for the
   * user's connections made after this (close its connections to apply them now).
   */
  setPermissions(configure: string, write: string, read: string): Promise<void>;
  /** Has the broker close every connection of this user on the vhost. Returns how many were closed. */
  closeConnections(): Promise<number>;
  /** Connections the broker currently lists for this user on the vhost. */
  countConnections(): Promise<number>;
  /** Deletes the user (the broker closes its connections). */
  remove(): Promise<void>;
}

interface ConnectionRow {
  user: string;
  vhost: string;
  pid: string;
}

async function listConnections(): Promise<ConnectionRow[]> {
  const out = await rabbitmqctl('list_connections', '--no-table-headers', 'user', 'vhost', 'pid');
  return out
    .split('\n')
    .map((line) => line.split('\t').map((cell) => cell.trim()))
    .filter((cells) => cells.length === 3 && cells[2] !== '')
    .map(([user, vhost, pid]) => ({ user: user!, vhost: vhost!, pid: pid! }));
}

/** Adds `confbus-test-user-<pid>-<random>` with full permissions on `vhost`. */
export async function createTestRabbitUser(vhost: string): Promise<TestRabbitUser> {
  const username = `confbus-test-user-${process.pid}-${randomBytes(4).toString('hex')}`;
  const password = randomBytes(16).toString('hex');
  await rabbitmqctl('add_user', username, password);
  const grant = () => rabbitmqctl('set_permissions', '-p', vhost, username, '.*', '.*', '.*');
  try {
    await grant();
  } catch (err) {
    await rabbitmqctl('delete_user', username).catch(() => undefined);
    throw err;
  }
  const mine = async () =>
    (await listConnections()).filter((row) => row.user === username && row.vhost === vhost);
  return {
    username,
    password,
    vhost,
    async revoke() {
      await rabbitmqctl('clear_permissions', '-p', vhost, username);
    },
    async restore() {
      await grant();
    },
    async setPermissions(configure, write, read) {
      await rabbitmqctl('set_permissions', '-p', vhost, username, configure, write, read);
    },
    async closeConnections() {
      const rows = await mine();
      for (const row of rows) {
        // A connection may already be going away on its own; that is what we wanted anyway.
        await rabbitmqctl('close_connection', row.pid, 'closed by confbus test').catch(() => undefined);
      }
      return rows.length;
    },
    async countConnections() {
      return (await mine()).length;
    },
    async remove() {
      await rabbitmqctl('delete_user', username);
    },
  };
}
