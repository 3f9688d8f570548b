// A RabbitMQ node of the benchmark's own, for fleets larger than the shared broker accepts: it runs beside the
// shared one (own node name, port, data and log folders under a temp dir), with the file limit raised to the
// hard limit before it starts, and is stopped and removed at the end of the run. The shared broker is never
// touched. Needs the rabbitmq-server package and root (the node runs as the `rabbitmq` user, as Debian's does).
import { execFile } from 'node:child_process';
import { chown, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout } from 'node:timers/promises';
import { promisify } from 'node:util';
import { spawn } from 'node:child_process';
import { onCleanup } from './cleanup.mjs';

const run = promisify(execFile);

async function rabbitmqctl(node, ...args) {
  const { stdout } = await run('rabbitmqctl', ['-n', node, '-q', ...args], { timeout: 60_000 });
  return stdout.trim();
}

/**
 * Starts the node and resolves when it accepts AMQP connections as guest/guest on 127.0.0.1:`port`; `distPort`
 * is its Erlang distribution port (rabbitmqctl talks to the node there).
 */
export async function startPrivateBroker({ port, distPort, fileLimit = 20_000 }) {
  const name = `confbus-bench-${process.pid}`;
  const node = `${name}@localhost`;
  const dir = join(tmpdir(), name);
  await rm(dir, { recursive: true, force: true });
  await mkdir(join(dir, 'mnesia'), { recursive: true });
  await mkdir(join(dir, 'log'), { recursive: true });
  // Its own listener (the machine's rabbitmq.conf names 5672); guest may connect over loopback only anyway.
  await writeFile(join(dir, 'rabbitmq.conf'), `listeners.tcp.default = 127.0.0.1:${port}\n`);
  await writeFile(join(dir, 'enabled_plugins'), '[].\n');
  const { stdout: ids } = await run('id', ['-u', 'rabbitmq']);
  const { stdout: gids } = await run('id', ['-g', 'rabbitmq']);
  for (const path of [
    dir,
    join(dir, 'mnesia'),
    join(dir, 'log'),
    join(dir, 'rabbitmq.conf'),
    join(dir, 'enabled_plugins'),
  ]) {
    await chown(path, Number(ids), Number(gids));
  }
  const env = {
    RABBITMQ_NODENAME: node,
    RABBITMQ_CONFIG_FILE: join(dir, 'rabbitmq.conf'),
    RABBITMQ_DIST_PORT: String(distPort),
    RABBITMQ_MNESIA_BASE: join(dir, 'mnesia'),
    RABBITMQ_MNESIA_DIR: join(dir, 'mnesia', 'node'),
    RABBITMQ_FEATURE_FLAGS_FILE: join(dir, 'mnesia', 'feature_flags'),
    RABBITMQ_LOG_BASE: join(dir, 'log'),
    RABBITMQ_ENABLED_PLUGINS_FILE: join(dir, 'enabled_plugins'),
  };
  const assignments = Object.entries(env)
    .map(([key, value]) => `${key}='${value}'`)
    .join(' ');
  // `su` starts a login-less shell for the rabbitmq user; the soft file limit is raised inside it (up to the
  // hard limit PAM gives that user), which the broker reads once at start.
  const child = spawn(
    'su',
    [
      'rabbitmq',
      '-s',
      '/bin/sh',
      '-c',
      `ulimit -n ${fileLimit}; ${assignments} exec /usr/lib/rabbitmq/bin/rabbitmq-server`,
    ],
    { stdio: 'ignore', detached: true },
  );
  child.unref();
  const stop = onCleanup(async () => {
    await rabbitmqctl(node, 'stop').catch(() => child.kill('SIGKILL'));
    await rm(dir, { recursive: true, force: true });
  });
  let handles;
  for (let attempt = 0; handles === undefined; attempt++) {
    handles = await rabbitmqctl(node, 'eval', 'file_handle_cache:get_limit().').catch(() => undefined);
    if (handles === undefined && attempt >= 120) {
      await stop();
      throw new Error(`the private broker ${node} did not start within 60 s`);
    }
    if (handles === undefined) await setTimeout(500);
  }
  await rabbitmqctl(node, 'await_startup');
  // A named vhost as on the shared broker (the delivery counter reads queues by vhost name).
  const vhost = 'confbus-bench';
  await rabbitmqctl(node, 'add_vhost', vhost);
  await rabbitmqctl(node, 'set_permissions', '-p', vhost, 'guest', '.*', '.*', '.*');
  return {
    node,
    pid: Number(await rabbitmqctl(node, 'eval', 'list_to_integer(os:getpid()).')),
    port,
    vhost,
    sockets: Math.floor(Number(handles) * 0.9) - 2,
    stop,
  };
}
