import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The local test broker (see common rules: 127.0.0.1:5672, guest/guest). */
export const RABBIT_HOST = '127.0.0.1';
export const RABBIT_PORT = 5672;
export const RABBIT_USER = 'guest';
export const RABBIT_PASSWORD = 'guest';

async function rabbitmqctl(...args: string[]): Promise<string> {
  const { stdout } = await run('rabbitmqctl', ['-q', ...args], { timeout: 60_000 });
  return stdout;
}

export interface TestVhost {
  readonly name: string;
  /** `amqp://guest:guest@127.0.0.1:5672/<vhost>` (vhost URL-encoded). */
  readonly amqpUrl: string;
  /** Deletes the vhost (and with it its exchanges, queues and connections). */
  remove(): Promise<void>;
}

/** A fresh vhost for one test file, named `confbus-test-<pid>-<random>`, with full rights for guest. */
export async function createTestVhost(): Promise<TestVhost> {
  const name = `confbus-test-${process.pid}-${randomBytes(4).toString('hex')}`;
  await rabbitmqctl('add_vhost', name);
  try {
    await rabbitmqctl('set_permissions', '-p', name, RABBIT_USER, '.*', '.*', '.*');
  } catch (err) {
    await rabbitmqctl('delete_vhost', name).catch(() => undefined);
    throw err;
  }
  return {
    name,
    amqpUrl: `amqp://${RABBIT_USER}:${RABBIT_PASSWORD}@${RABBIT_HOST}:${RABBIT_PORT}/${encodeURIComponent(name)}`,
    remove: async () => {
      await rabbitmqctl('delete_vhost', name);
    },
  };
}

/** Has the broker close every client connection of the vhost (simulates a broker-side failure). Returns how many. */
export async function closeVhostConnections(name: string): Promise<number> {
  const out = await rabbitmqctl('list_connections', '--no-table-headers', 'vhost', 'pid');
  const pids = out
    .split('\n')
    .map((line) => line.split('\t'))
    .filter(([vhost, pid]) => vhost === name && pid !== undefined && pid.trim() !== '')
    .map(([, pid]) => pid!.trim());
  for (const pid of pids) {
    await rabbitmqctl('close_connection', pid, 'closed by confbus fault test');
  }
  return pids.length;
}

/** Connections the broker currently lists for the vhost. */
export async function countVhostConnections(name: string): Promise<number> {
  const out = await rabbitmqctl('list_connections', '--no-table-headers', 'vhost');
  return out.split('\n').filter((line) => line.trim() === name).length;
}

/** Names of the queues the broker currently lists in the vhost. */
export async function listVhostQueues(name: string): Promise<string[]> {
  const out = await rabbitmqctl('list_queues', '-p', name, '--no-table-headers', 'name');
  return out
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
}
