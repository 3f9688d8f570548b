// Bus over Kafka vs over AMQP, same run: time from a push webhook (`POST /monitor`) until every client instance
// serves the pushed value, for fleets of 10 and 50 instances. Everything is real: a bare git remote, a
// `confbus server` child process, ConfigClient instances in worker processes (lib/bus-fleet-worker.mjs), and
// either RabbitMQ (a vhost of its own) or a single-node Kafka started from Maven Central's jars (testkit).
// Baseline: the same fleet and rounds over AMQP. Run alone: `npx tsc -b && node bench/bus-kafka-bench.mjs`.
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout } from 'node:timers';
import { pathToFileURL } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { onCleanup } from './lib/cleanup.mjs';
import { startFleetWorker } from './lib/fleet-workers.mjs';
import { startConfbusServer } from './lib/processes.mjs';
import { createConfigRepo, makeTempDir } from './lib/repos.mjs';
import { fmt } from './lib/report.mjs';

export const title = 'Bus over Kafka vs AMQP';

const { fetch } = globalThis;
const FLEET_SIZES = (process.env.CONFBUS_KAFKA_BENCH_SIZES ?? '10 50').split(/\s+/).map(Number);
const ROUNDS = Number(process.env.CONFBUS_KAFKA_BENCH_ROUNDS ?? 5);
const WORKERS = 4;
const ROUND_DEADLINE_MS = 15_000;
const SETTLE_DEADLINE_MS = 30_000;

const wallNow = () => performance.timeOrigin + performance.now();
const sorted = (xs) => [...xs].sort((a, b) => a - b);
const median = (xs) => {
  const s = sorted(xs);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};
const percentile = (xs, p) => sorted(xs)[Math.max(0, Math.ceil((p / 100) * xs.length) - 1)];
const devYml = (value) => `group:\n  comment: ${value}\n`;

async function postWebhook(serverUrl) {
  const response = await fetch(`${serverUrl}/monitor`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-github-event': 'push' },
    body: JSON.stringify({
      ref: 'refs/heads/master',
      commits: [{ id: '0', message: 'bench', added: [], removed: [], modified: ['sample-dev.yml'] }],
    }),
  });
  const text = await response.text();
  if (response.status !== 200)
    throw new Error(`POST /monitor answered ${response.status}: ${text.slice(0, 300)}`);
}

/** Every size on one broker: server, workers, rounds; returns per size the median worst and p50 (ms). */
async function measureTransport({ name, busArgs, repo, root, log, counter }) {
  const server = await startConfbusServer({
    uri: pathToFileURL(repo.path).href,
    basedir: join(root.path, `mirror-${name}`),
    refreshRate: 0,
    extraArgs: [
      '--spring.cloud.config.server.git.clone-on-start=true',
      '--spring.cloud.bus.enabled=true',
      ...busArgs,
    ],
  });
  const workers = [];
  try {
    for (let i = 0; i < WORKERS; i++) workers.push(await startFleetWorker(i));
    const clientArgs = [
      `--spring.cloud.config.uri=${server.url}`,
      '--spring.application.name=sample',
      '--spring.profiles.active=dev',
      '--spring.cloud.bus.enabled=true',
      '--management.endpoints.web.exposure.include=health',
      ...busArgs,
    ];
    const all = (msg) => Promise.all(workers.map((w) => w.request(msg)));
    let fleet = 0;
    const results = new Map();
    const settle = async (commit) => {
      const deadline = performance.now() + SETTLE_DEADLINE_MS;
      for (;;) {
        const events = await (await fetch(`${server.url}/actuator/refresh-events`)).json();
        const event = events.find((e) => e.commit === commit && e.destination === 'sample:**');
        if (event && event.acks.length >= fleet) return;
        if (performance.now() > deadline)
          throw new Error(`acks for ${commit.slice(0, 12)} did not all arrive`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const round = async () => {
      const value = `${name}-${++counter.value}`;
      const commit = await repo.push({ 'sample-dev.yml': devYml(value) }, `bench: ${value}`);
      const t0 = wallNow();
      await postWebhook(server.url);
      const answers = await all({ type: 'collect', value, deadlineMs: ROUND_DEADLINE_MS });
      const missing = answers.flatMap((a) => a.missing);
      if (missing.length > 0)
        throw new Error(`${missing.length} of ${fleet} instances did not serve ${value}`);
      await settle(commit);
      return answers.flatMap((a) => a.served).map((s) => s.servedAt - t0);
    };
    for (const size of FLEET_SIZES) {
      const ids = Array.from({ length: WORKERS }, () => []);
      for (let n = fleet; n < size; n++) ids[n % WORKERS].push(`sample:dev:${n}:${name}`);
      await Promise.all(workers.map((w, i) => w.request({ type: 'add', ids: ids[i], args: clientArgs })));
      fleet = size;
      log(`${name}: ${size} instances, warm-up round, then ${ROUNDS} rounds`);
      await round();
      const rounds = [];
      for (let i = 0; i < ROUNDS; i++) rounds.push(await round());
      results.set(size, {
        medianWorst: median(rounds.map((r) => Math.max(...r))),
        p50: percentile(rounds.flat(), 50),
        worsts: rounds.map((r) => Math.max(...r)),
      });
    }
    return results;
  } finally {
    for (const w of workers) await w.stop();
    await server.stop();
  }
}

export async function run({ log }) {
  const { kafkaAvailability, startKafkaBroker } = await tsImport(
    '@confbus/testkit/kafka-broker',
    import.meta.url,
  );
  const availability = kafkaAvailability();
  if (!availability.ok) {
    const measure = 'webhook to all instances serving over Kafka';
    return {
      rows: [
        {
          measure,
          confbus: `not run: ${availability.reason}`,
          baseline: '',
          ratio: '',
          goal: 'report',
          pass: null,
        },
      ],
    };
  }
  const { createTestVhost } = await tsImport('@confbus/testkit/rabbit-vhost', import.meta.url);
  const root = await makeTempDir('confbus-kafka-bench-');
  const repo = await createConfigRepo(root.path, 'config', {
    'sample.yml': 'group:\n  comment: base\n',
    'sample-dev.yml': devYml('initial'),
  });
  const broker = await startKafkaBroker();
  const removeBroker = onCleanup(() => broker.remove());
  const vhost = await createTestVhost();
  const removeVhost = onCleanup(() => vhost.remove());
  const counter = { value: 0 };
  const amqp = await measureTransport({
    name: 'amqp',
    busArgs: ['--spring.rabbitmq.host=127.0.0.1', `--spring.rabbitmq.virtual-host=${vhost.name}`],
    repo,
    root,
    log,
    counter,
  });
  const kafka = await measureTransport({
    name: 'kafka',
    busArgs: [`--spring.kafka.bootstrap-servers=${broker.bootstrap}`],
    repo,
    root,
    log,
    counter,
  });
  await removeVhost();
  await removeBroker();

  const rows = [];
  const lines = [];
  for (const size of FLEET_SIZES) {
    const k = kafka.get(size);
    const a = amqp.get(size);
    rows.push(
      {
        measure: `webhook to all ${size} instances serving, Kafka vs AMQP, median of per-round worst, ms`,
        confbus: `${fmt(k.medianWorst)} (Kafka)`,
        baseline: `${fmt(a.medianWorst)} (AMQP)`,
        ratio: `${fmt(k.medianWorst / a.medianWorst)}x`,
        goal: 'report',
        pass: null,
      },
      {
        measure: `webhook to one of ${size} instances serving, Kafka vs AMQP, p50, ms`,
        confbus: `${fmt(k.p50)} (Kafka)`,
        baseline: `${fmt(a.p50)} (AMQP)`,
        ratio: `${fmt(k.p50 / a.p50)}x`,
        goal: 'report',
        pass: null,
      },
    );
    lines.push(
      `- ${size} instances, ${ROUNDS} rounds, per-round worst (ms): Kafka ${k.worsts.map((w) => fmt(w)).join(' ')}; ` +
        `AMQP ${a.worsts.map((w) => fmt(w)).join(' ')}`,
    );
  }
  lines.push(
    '- one single-node Kafka 4.4 (KRaft, test settings: group.initial.rebalance.delay.ms=0) and the local RabbitMQ, ' +
      `${WORKERS} worker processes, acks on (the round ends when the server has every ack)`,
  );
  return { rows, sections: [{ title: 'Bus over Kafka vs AMQP (bench/bus-kafka-bench.mjs)', lines }] };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { runBenches } = await import('./lib/runner.mjs');
  await runBenches([{ title, run }]);
}
