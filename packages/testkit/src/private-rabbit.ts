/**
 * A RabbitMQ node of the test's (or benchmark's) own, for what the shared broker cannot be made to do: a TLS
 * listener, a raised file limit. It runs beside the shared one — its own node name, AMQP and distribution ports,
 * data and log folders in a temp dir — and `stop()` stops it and removes the folder. The shared broker is never
 * touched. Needs the rabbitmq-server package and root (the node runs as the `rabbitmq` user, as Debian's does).
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chown, copyFile, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface PrivateRabbitOptions {
  /** The AMQP port (plain TCP listener); with `tls`, the TLS listener's port instead. */
  readonly port: number;
  /** The node's Erlang distribution port (rabbitmqctl talks to it there). */
  readonly distPort: number;
  /** A TLS listener on `port` (no plain listener then): the server's key and certificate and the CA, PEM. */
  readonly tls?: {
    readonly key: string;
    readonly cert: string;
    readonly ca: string;
    readonly verifyPeer?: boolean;
  };
  /** The soft file limit the node starts with (default: the shell's). */
  readonly fileLimit?: number;
  /** Names the node (`<prefix>-<pid>-<random>@localhost`). */
  readonly prefix?: string;
}

export interface PrivateRabbit {
  readonly node: string;
  readonly port: number;
  /** The OS pid of the node (its beam process). */
  readonly pid: number;
  /** rabbitmqctl against this node. */
  ctl(...args: string[]): Promise<string>;
  stop(): Promise<void>;
}

/** Starts the node; resolves once it has booted (its listeners are open). */
export async function startPrivateRabbit(options: PrivateRabbitOptions): Promise<PrivateRabbit> {
  const name = `${options.prefix ?? 'confbus-test'}-${process.pid}-${randomBytes(3).toString('hex')}`;
  const node = `${name}@localhost`;
  const dir = join(tmpdir(), name);
  const ctl = async (...args: string[]) =>
    (await run('rabbitmqctl', ['-n', node, '-q', ...args], { timeout: 60_000 })).stdout.trim();
  await mkdir(join(dir, 'mnesia'), { recursive: true });
  await mkdir(join(dir, 'log'), { recursive: true });
  const owned = [dir, join(dir, 'mnesia'), join(dir, 'log')];
  const config = await listenerConfig(options, dir, owned);
  await writeFile(join(dir, 'rabbitmq.conf'), config);
  await writeFile(join(dir, 'enabled_plugins'), '[].\n');
  owned.push(join(dir, 'rabbitmq.conf'), join(dir, 'enabled_plugins'));
  const uid = Number((await run('id', ['-u', 'rabbitmq'])).stdout);
  const gid = Number((await run('id', ['-g', 'rabbitmq'])).stdout);
  for (const path of owned) await chown(path, uid, gid);
  const env: Record<string, string> = {
    RABBITMQ_NODENAME: node,
    RABBITMQ_CONFIG_FILE: join(dir, 'rabbitmq.conf'),
    RABBITMQ_DIST_PORT: String(options.distPort),
    RABBITMQ_MNESIA_BASE: join(dir, 'mnesia'),
    RABBITMQ_MNESIA_DIR: join(dir, 'mnesia', 'node'),
    RABBITMQ_FEATURE_FLAGS_FILE: join(dir, 'mnesia', 'feature_flags'),
    RABBITMQ_LOG_BASE: join(dir, 'log'),
    RABBITMQ_ENABLED_PLUGINS_FILE: join(dir, 'enabled_plugins'),
  };
  const assignments = Object.entries(env)
    .map(([key, value]) => `${key}='${value}'`)
    .join(' ');
  const limit = options.fileLimit === undefined ? '' : `ulimit -n ${options.fileLimit}; `;
  // `su` starts a login-less shell for the rabbitmq user; the file limit is raised inside it.
  const child: ChildProcess = spawn(
    'su',
    ['rabbitmq', '-s', '/bin/sh', '-c', `${limit}${assignments} exec /usr/lib/rabbitmq/bin/rabbitmq-server`],
    { stdio: 'ignore', detached: true },
  );
  child.unref();
  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= (async () => {
      await ctl('stop').catch(() => child.kill('SIGKILL'));
      await rm(dir, { recursive: true, force: true });
    })());
  try {
    // The node answers rabbitmqctl once its Erlang VM is up; await_startup then waits for the boot to finish.
    const deadline = Date.now() + 90_000;
    while (
      !(await ctl('status').then(
        () => true,
        () => false,
      ))
    ) {
      if (child.exitCode !== null || Date.now() > deadline)
        throw new Error(`the private RabbitMQ node ${node} did not start (logs were in ${join(dir, 'log')})`);
      await delay(500);
    }
    await ctl('await_startup');
    const pid = Number(await ctl('eval', 'list_to_integer(os:getpid()).'));
    return { node, port: options.port, pid, ctl, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** rabbitmq.conf's listener lines; TLS files are copied into the node's folder (the rabbitmq user reads them). */
async function listenerConfig(options: PrivateRabbitOptions, dir: string, owned: string[]): Promise<string> {
  if (options.tls === undefined) return `listeners.tcp.default = 127.0.0.1:${options.port}\n`;
  const lines = ['listeners.tcp = none', `listeners.ssl.default = 127.0.0.1:${options.port}`];
  for (const [setting, file] of [
    ['cacertfile', options.tls.ca],
    ['certfile', options.tls.cert],
    ['keyfile', options.tls.key],
  ] as const) {
    const copy = join(dir, basename(file));
    await copyFile(file, copy);
    owned.push(copy);
    lines.push(`ssl_options.${setting} = ${copy}`);
  }
  lines.push(`ssl_options.verify = ${options.tls.verifyPeer ? 'verify_peer' : 'verify_none'}`);
  lines.push(`ssl_options.fail_if_no_peer_cert = ${options.tls.verifyPeer ? 'true' : 'false'}`);
  return `${lines.join('\n')}\n`;
}
