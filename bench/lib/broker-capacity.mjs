// Finds a RabbitMQ for a large benchmark fleet (one AMQP connection per instance).
// A broker started from a shell with `ulimit -n 1024` accepts about 830 sockets (RabbitMQ keeps 10% of its
// file handles for files), fewer than a 1,000-instance fleet needs. Raising the broker process's soft limit
// up to its hard limit (prlimit) and then RabbitMQ's own handle limit (file_handle_cache:set_limit/1) takes
// effect at once, without a restart; the broker is never stopped. What was done is returned for the report.
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { promisify } from 'node:util';
import { tsImport } from 'tsx/esm/api';
import { onCleanup } from './cleanup.mjs';
import { startPrivateBroker } from './private-broker.mjs';

const run = promisify(execFile);

/** The shared broker cannot take the fleet's connections (and its limit could not be raised). */
class BrokerCapacityError extends Error {}

async function rabbitEval(expression) {
  const { stdout } = await run('rabbitmqctl', ['-q', 'eval', expression], { timeout: 60_000 });
  return stdout.trim();
}

/** RabbitMQ's socket limit: 90% of its file-handle limit, minus 2 (rabbit_fhc_helpers / file_handle_cache). */
const socketsFor = (handles) => Math.floor(handles * 0.9) - 2;

/**
 * Ensures the broker accepts at least `sockets` connections. Resolves with a sentence saying what it found
 * and changed; throws when the hard limit of the broker process is too low (the fleet cannot be measured).
 */
export async function ensureBrokerSockets(sockets) {
  const handles = Number(await rabbitEval('file_handle_cache:get_limit().'));
  if (socketsFor(handles) >= sockets) return `broker socket limit ${socketsFor(handles)} (unchanged)`;
  const pid = await rabbitEval('list_to_integer(os:getpid()).');
  const limits = await readFile(`/proc/${pid}/limits`, 'utf8');
  const [soft, hard] = (/^Max open files\s+(\d+)\s+(\d+)/m.exec(limits) ?? []).slice(1).map(Number);
  const needed = Math.ceil((sockets + 2) / 0.9) + 16;
  const cannot = (why) =>
    new BrokerCapacityError(
      `RabbitMQ accepts ${socketsFor(handles)} connections, the fleet needs ${sockets}: ${why}; ` +
        `start the broker with \`ulimit -n ${needed}\` or more`,
    );
  if (soft === undefined || hard === undefined) throw cannot(`no file limit in /proc/${pid}/limits`);
  if (hard < needed) throw cannot(`its hard file limit is ${hard}`);
  if (soft < needed) {
    try {
      await run('prlimit', ['--pid', pid, `--nofile=${hard}:${hard}`]);
    } catch (error) {
      throw cannot(`raising its file limit from ${soft} failed (${String(error.stderr ?? error).trim()})`);
    }
  }
  const target = Math.max(needed, Math.min(hard - 64, needed * 2));
  await rabbitEval(`file_handle_cache:set_limit(${target}).`);
  return (
    `broker socket limit raised from ${socketsFor(handles)} to ${socketsFor(target)} ` +
    `(process file limit ${soft} -> ${Math.max(soft, hard)}; RabbitMQ file handles ${handles} -> ${target})`
  );
}

/**
 * The broker a fleet of `connections` runs on: the shared one (on a vhost of its own) when it accepts that many
 * connections, else a private node started for the run. `describe` says which, and why, for the report.
 */
export async function fleetBroker(connections, log) {
  const { createTestVhost } = await tsImport('@confbus/testkit/rabbit-vhost', import.meta.url);
  // CONFBUS_BENCH_PRIVATE_BROKER=1: a private node even for fleets the shared broker holds (to compare them).
  const forced = process.env.CONFBUS_BENCH_PRIVATE_BROKER === '1';
  let shortfall = forced ? 'CONFBUS_BENCH_PRIVATE_BROKER=1' : undefined;
  if (!forced)
    try {
      const capacity = await ensureBrokerSockets(connections);
      const vhost = await createTestVhost();
      return {
        pid: Number(await rabbitEval('list_to_integer(os:getpid()).')),
        port: 5672,
        vhost: vhost.name,
        node: undefined,
        describe: `the shared RabbitMQ on 127.0.0.1:5672, vhost ${vhost.name} (${capacity})`,
        stop: onCleanup(() => vhost.remove()),
      };
    } catch (error) {
      if (!(error instanceof BrokerCapacityError)) throw error;
      shortfall = error.message;
    }
  log(`${shortfall}; starting a private broker node for this run`);
  const port = await freePort();
  // Its Erlang distribution port is a free port too: `port + 20000` (as it was) passes 65535 for most of the
  // ephemeral range, and the node then never starts.
  const broker = await startPrivateBroker({ port, distPort: await freePort() });
  if (broker.sockets < connections) {
    await broker.stop();
    throw new Error(
      `the private broker accepts ${broker.sockets} connections, the fleet needs ${connections}`,
    );
  }
  return {
    pid: broker.pid,
    port,
    vhost: broker.vhost,
    node: broker.node,
    describe: `a private RabbitMQ node on 127.0.0.1:${port} accepting ${broker.sockets} connections (the shared broker accepts fewer than the ${connections} the fleet needs)`,
    stop: broker.stop,
  };
}

async function freePort() {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address();
  server.close();
  return port;
}
