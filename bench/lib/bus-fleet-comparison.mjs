// The watch bench's comparison (issue #29): the same fleet sizes refreshed over the AMQP bus in the same run.
// As bench/bus-bench.mjs: a `confbus server` with the bus on a RabbitMQ vhost of its own (or a private node,
// lib/broker-capacity.mjs), real ConfigClient instances (one AMQP connection and queue each) in 4 worker
// processes (lib/bus-fleet-worker.mjs), per round a commit and a webhook, timed until every instance serves the
// new value; acks off, as the watch bench's workers do not ack either. Measured per size: webhook → all serving
// (per round), the CPU the server and the broker spent on each round, and what holding the fleet costs the
// server and the broker in RSS per instance. A size whose fleet would not fit in the machine's memory (its
// cost per instance measured on the smaller size first) is cut to the largest thousand that fits, and said so.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { fleetBroker } from './broker-capacity.mjs';
import { cpuMs } from './cpu-time.mjs';
import { startFleetWorker } from './fleet-workers.mjs';
import { startConfbusServer } from './processes.mjs';
import { createConfigRepo, makeTempDir } from './repos.mjs';

const { fetch } = globalThis;
const WORKERS = 4;
/** Unmeasured rounds: instances open their keep-alive connection to the server on their first re-fetch. */
const WARMUP_ROUNDS = 2;
const PUBLISH_TIMEOUT_MS = 60_000;
/** A round whose fleet has not all served the value by then fails. */
const ROUND_DEADLINE_MS = 30_000;
/** Left free for the rest of the machine (the server, other sessions) when sizing a fleet. */
const HEADROOM_BYTES = 6 * 1024 ** 3;

const wallNow = () => performance.timeOrigin + performance.now();
const devYml = (value) => `group:\n  comment: ${value}\n`;

async function rssOf(pid) {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)[1]) * 1024;
}

async function availableBytes() {
  const meminfo = await readFile('/proc/meminfo', 'utf8');
  return Number(/MemAvailable:\s+(\d+) kB/.exec(meminfo)[1]) * 1024;
}

/**
 * Measures each of `sizes` (ascending) over the bus, growing one fleet; resolves with one entry per size:
 * `{ size, asked, note?, times, answered, missed, missedWhy, serverCpu, brokerCpu, serverRss, brokerRss, workersRss }` (ms; bytes per
 * instance), or
 * `{ size, error }` once a size failed (larger sizes are then not tried).
 */
export async function measureBusFleets(sizes, { rounds, log }) {
  const root = await makeTempDir('confbus-watch-bus-');
  const repo = await createConfigRepo(root.path, 'config', {
    'application.yml': 'group:\n  owner: platform\n',
    'sample.yml': 'group:\n  comment: base\n',
    'sample-dev.yml': devYml('initial'),
  });
  const broker = await fleetBroker(Math.max(...sizes) + 16, log);
  // The server and every client join the same bus on the private broker.
  const busArgs = [
    '--spring.cloud.bus.enabled=true',
    '--spring.rabbitmq.host=127.0.0.1',
    `--spring.rabbitmq.port=${broker.port}`,
    `--spring.rabbitmq.virtual-host=${broker.vhost}`,
  ];
  const server = await startConfbusServer({
    uri: pathToFileURL(repo.path).href,
    basedir: join(root.path, 'mirror'),
    refreshRate: 3600,
    extraArgs: [
      ...busArgs,
      // The default 5 s is too short on this machine for a publish routed to 10,000 queues: /monitor answered
      // 503 (CONFBUS_BUS_PUBLISH_FAILED). The answer times are reported, so a round past 5 s shows.
      `--confbus.bus.publish-timeout=${PUBLISH_TIMEOUT_MS}`,
    ],
  });
  const pid = server.child.pid;
  const workers = [];
  const results = [];
  try {
    for (let i = 0; i < WORKERS; i++) workers.push(await startFleetWorker(i));
    const clientArgs = [
      `--spring.cloud.config.uri=${server.url}`,
      '--spring.application.name=sample',
      '--spring.profiles.active=dev',
      '--spring.cloud.bus.ack.enabled=false',
      ...busArgs,
    ];
    const rss0 = { server: await rssOf(pid), broker: await rssOf(broker.pid) };
    const workersRss = async () =>
      (await Promise.all(workers.map((w) => rssOf(w.pid)))).reduce((a, b) => a + b);
    const workersRss0 = await workersRss();
    let fleet = 0;
    let counter = 0;
    /** Bytes per instance the last fleet cost the workers, the server and the broker together. */
    let perInstance;
    for (const asked of sizes) {
      let size = asked;
      let note;
      if (perInstance !== undefined && fleet > 0) {
        const fits =
          fleet + Math.floor(((await availableBytes()) - HEADROOM_BYTES) / perInstance / 1000) * 1000;
        if (fits < size) {
          size = fits;
          note =
            `${asked} instances would need ${(((asked - fleet) * perInstance) / 1024 ** 3).toFixed(1)} GiB more ` +
            `(${Math.round(perInstance / 1024)} KB per instance in the workers, the server and the broker, ` +
            `measured at ${fleet}); ${((await availableBytes()) / 1024 ** 3).toFixed(1)} GiB available, ` +
            `${HEADROOM_BYTES / 1024 ** 3} GiB kept free: measured at ${size}`;
          log(`bus fleet: ${note}`);
          if (size <= fleet) {
            results.push({ size, asked, note, error: 'no larger fleet fits' });
            break;
          }
        }
      }
      try {
        const ids = Array.from({ length: WORKERS }, () => []);
        for (let n = fleet; n < size; n++) ids[n % WORKERS].push(`sample:dev:${n}`);
        const grown = performance.now();
        await Promise.all(workers.map((w, i) => w.request({ type: 'add', ids: ids[i], args: clientArgs })));
        log(
          `bus fleet grown from ${fleet} to ${size} in ${((performance.now() - grown) / 1000).toFixed(1)} s`,
        );
        fleet = size;
        const rss = {
          server: await rssOf(pid),
          broker: await rssOf(broker.pid),
          workers: await workersRss(),
        };
        perInstance =
          (rss.server - rss0.server + rss.broker - rss0.broker + rss.workers - workersRss0) / fleet;
        const entry = {
          size,
          asked,
          note,
          times: [],
          answered: [],
          missed: [],
          missedWhy: undefined,
          serverCpu: [],
          brokerCpu: [],
          serverRss: (rss.server - rss0.server) / fleet,
          brokerRss: (rss.broker - rss0.broker) / fleet,
          workersRss: (rss.workers - workersRss0) / fleet,
        };
        for (let round = -WARMUP_ROUNDS; round < rounds; round++) {
          const value = `bus-${++counter}`;
          await repo.push({ 'sample-dev.yml': devYml(value) }, `bench: ${value}`);
          const cpu0 = [await cpuMs(pid), await cpuMs(broker.pid)];
          const t0 = wallNow();
          const answer = await fetch(`${server.url}/monitor`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ path: 'sample-dev.yml' }),
          });
          if (answer.status !== 200)
            throw new Error(`/monitor answered ${answer.status}: ${(await answer.text()).slice(0, 200)}`);
          const answered = Math.round(wallNow() - t0);
          const answers = await Promise.all(
            workers.map((w) => w.request({ type: 'collect', value, deadlineMs: ROUND_DEADLINE_MS })),
          );
          // An instance whose re-fetch failed keeps its configuration until its next event or safety-net poll:
          // counted and reported with the first one's reason, the round timed on the others.
          const missing = answers.flatMap((a) => a.missing);
          if (missing.length === size) throw new Error(`no instance served ${value}: ${missing[0]}`);
          if (missing.length > 0)
            log(`${missing.length} of ${size} bus instances missed ${value}: ${missing[0]}`);
          const worst = Math.max(...answers.flatMap((a) => a.served.map((s) => s.servedAt))) - t0;
          const cpu = [(await cpuMs(pid)) - cpu0[0], (await cpuMs(broker.pid)) - cpu0[1]];
          if (round < 0) continue;
          entry.times.push(Math.round(worst));
          entry.answered.push(answered);
          entry.missed.push(missing.length);
          entry.missedWhy ??= missing[0];
          entry.serverCpu.push(Math.round(cpu[0]));
          entry.brokerCpu.push(Math.round(cpu[1]));
          log(
            `${size} bus instances, round ${round + 1}: ${size - missing.length} serving after ${Math.round(worst)} ms ` +
              `(webhook answered at ${answered}); ` +
              `CPU server ${Math.round(cpu[0])} ms, broker ${Math.round(cpu[1])} ms`,
          );
        }
        results.push(entry);
      } catch (error) {
        results.push({ size, asked, note, error: error.message.split('\n')[0].slice(0, 160) });
        break;
      }
    }
  } finally {
    await Promise.allSettled(workers.map((w) => w.stop()));
    await server.stop();
    await broker.stop();
    await root.remove();
  }
  return { results, broker: broker.describe };
}
