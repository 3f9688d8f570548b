// Staged rollouts (issue #27): a `confbus server` and a fleet of real `confbus sample-client` processes (stable
// instance ids, the sample's injected fault: /health DOWN while a key has a given value) fetching through a
// recording proxy, so that the bench sees each health report arrive. Measured:
//   1. automatic rollback: from the first DOWN report of a canary (as it reaches the server) until every canary
//      serves commit A again (each canary's own "Keys refreshed" log line naming A: pino time, ms, same clock),
//      over several runs, worst included — with the default settings and plan (waves 1,5%,25%,100%, bake 300 s:
//      its one canary turns DOWN; goal <= 30 s), and with a short-bake plan (a healthy tagged canary, 2 s of
//      bake, then 100%: the other canaries turn DOWN; goal <= 5 s); first with the server on the bus (a RabbitMQ
//      vhost of its own), then, the same fleet through the proxy, with a server without one (the canaries then
//      learn of the rollback from their report answers). Baseline, same run and set-up: an operator's rollback by
//      hand (POST /-/rollouts/{id}/rollback until the canary serves A), the same path without the judge;
//   2. the cached GET path with the rollouts feature on and idle (no rollout ever started, its Git store synced
//      every 2 s) against the same server with confbus.server.rollouts.enabled=false (goal >= 0.95x): the
//      server's CPU time per request (robust to a loaded machine) and throughput (lib/rollout-idle-get.mjs).
// Run alone: `npx tsc -b && node bench/rollouts-bench.mjs` (CONFBUS_ROLLOUT_BENCH_FLEET / _ROUNDS to vary).
import { writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { onCleanup } from './lib/cleanup.mjs';
import { startConfbusServer } from './lib/processes.mjs';
import { backAt, json, sampleYaml, startRolloutClient, timeline, until } from './lib/rollout-fleet.mjs';
import { startRecordingProxy } from './lib/recording-proxy.mjs';
import { measureIdleGet } from './lib/rollout-idle-get.mjs';
import { createConfigRepo, git, makeTempDir } from './lib/repos.mjs';
import { fmt } from './lib/report.mjs';

export const title = 'Staged rollouts (automatic rollback, idle cost)';

const FLEET = Number(process.env.CONFBUS_ROLLOUT_BENCH_FLEET ?? 6);
const ROUNDS = Number(process.env.CONFBUS_ROLLOUT_BENCH_ROUNDS ?? 5);
const MANUAL_ROUNDS = 3;
/** CONFBUS_ROLLOUT_BENCH_PHASES=bus or no-bus: one set-up only; CONFBUS_ROLLOUT_BENCH_IDLE=0: no idle cost. */
const PHASES = (process.env.CONFBUS_ROLLOUT_BENCH_PHASES ?? 'bus,no-bus').split(',').map((p) => p === 'bus');
const IDLE = process.env.CONFBUS_ROLLOUT_BENCH_IDLE !== '0';

const sorted = (xs) => [...xs].sort((a, b) => a - b);
const median = (xs) => sorted(xs)[Math.floor((xs.length - 1) / 2)];
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');

/**
 * The rollback measurements: first a server and fleet on the bus, then a server and fleet without one (the
 * fleet watches the server's stream instead, the default without a bus): `{ [scenario]: [{ ms, judgeMs,
 * canaries, triggers }] }`. Each bad commit is staged on a side branch, the rollout started, then master moved
 * to it and the webhook sent, as docs/rollouts.md says to.
 */
async function measureRollbacks({ root, log, details }) {
  const repo = await createConfigRepo(root.path, 'config', {
    'sample.yml': sampleYaml({ comment: 'first' }),
  });
  const A = repo.initial;
  const work = join(root.path, 'config-work');
  let round = 0;
  /** A commit on the side branch `next`, made from A (served to nobody until a rollout names it). */
  const stage = async (fields) => {
    await git(work, 'checkout', '--quiet', '-B', 'next', A);
    await writeFile(join(work, 'sample.yml'), sampleYaml({ ...fields, round: ++round }));
    await git(work, 'commit', '--quiet', '-am', `bench: round ${round}`);
    await git(work, 'push', '--quiet', '--force', 'origin', 'next');
    return (await git(work, 'rev-parse', 'HEAD')).trim();
  };
  const { createTestVhost } = await tsImport('@confbus/testkit/rabbit-vhost', import.meta.url);
  const vhost = await createTestVhost();
  onCleanup(() => vhost.remove());
  const busArgs = (bus) =>
    bus
      ? [
          '--spring.cloud.bus.enabled=true',
          '--spring.rabbitmq.host=127.0.0.1',
          `--spring.rabbitmq.virtual-host=${vhost.name}`,
        ]
      : ['--spring.cloud.bus.enabled=false'];
  const reports = [];
  const proxy = await startRecordingProxy('http://127.0.0.1:9', ({ method, url, body, headers, at }) => {
    if (method !== 'POST' || !url.endsWith('/-/rollouts/reports')) return;
    const report = JSON.parse(body.toString('utf8'));
    reports.push({
      at,
      version: report.version,
      status: report.status,
      instance: headers['x-confbus-instance-id'],
    });
  });
  let server;
  let clients;
  const view = (id) => json('GET', `${server.url}/-/rollouts/${id}`);
  /** Started, then released: master moves to the new commit and the Git host's webhook tells the server. */
  const startRollout = async (to, plan) => {
    const started = await json('POST', `${server.url}/-/rollouts`, {
      application: 'sample',
      from: A,
      to,
      ...plan,
    });
    await git(work, 'push', '--quiet', '--force', 'origin', `${to}:refs/heads/master`);
    await json(
      'POST',
      `${server.url}/monitor`,
      { ref: 'refs/heads/master', commits: [{ modified: ['sample.yml'] }] },
      { 'x-github-event': 'push' },
    );
    return started;
  };

  /** One bad push: started, judged, rolled back; timed from the first DOWN report to every canary on A. */
  const rollback = async (plan, fields) => {
    const C = await stage(fields);
    const started = await startRollout(C, plan);
    const ended = await until('the rollout rolls back', async () => {
      const v = await view(started.id);
      return v.status === 'rolled-back' ? v : undefined;
    });
    const decision = ended.decisions.at(-1);
    if (decision.by !== 'judge') throw new Error(`rolled back by ${decision.by}: ${decision.reason}`);
    const served = new Set(ended.instances.filter((i) => i.served.includes(C)).map((i) => i.id));
    const canaries = clients.filter((c) => served.has(c.id));
    const back = await until(
      'every canary serves A again',
      async () => {
        const times = canaries.map((c) => backAt(c, C, A));
        return times.every(Boolean) ? times : undefined;
      },
      60_000,
    );
    const first = Math.min(...reports.filter((r) => r.version === C && r.status !== 'UP').map((r) => r.at));
    const last = back.reduce((a, b) => (b.at > a.at ? b : a));
    const slowest = canaries[back.indexOf(last)];
    return {
      slowest: timeline(slowest, reports, { A, C }, first, last.at),
      ms: last.at - first,
      judgeMs: decision.at - first,
      canaries: canaries.length,
      triggers: [...new Set(back.map((b) => b.trigger))].join('+'),
    };
  };

  /** The baseline: a healthy canary (tag `first`) on B, rolled back by hand; timed from the POST. */
  const manual = async () => {
    const B = await stage({ comment: 'good' });
    const started = await startRollout(B, { waves: [{ tags: { zone: 'first' } }], bakeSeconds: 3600 });
    await until('the tagged canary serves B', async () =>
      clients[0].applied.some((a) => a.version === B) ? true : undefined,
    );
    const t0 = Date.now();
    await json('POST', `${server.url}/-/rollouts/${started.id}/rollback`, { reason: 'bench' });
    const back = await until('the canary serves A again', async () => backAt(clients[0], B, A), 60_000);
    return { ms: back.at - t0, judgeMs: NaN, canaries: 1, triggers: back.trigger };
  };

  const results = {};
  const measure = async (name, of, once) => {
    const result = await once();
    (results[name] ??= []).push(result);
    log(
      `${name} ${results[name].length}/${of}: ${fmt(result.ms)} ms (judged ${fmt(result.judgeMs)} ms after ` +
        `the first DOWN report; ${result.canaries} canaries back by ${result.triggers}; load ${load()})`,
    );
  };
  details.push(`- fleet: ${FLEET} sample-client processes; load average at start ${load()}`);
  for (const bus of PHASES) {
    const suffix = bus ? '' : ' no-bus';
    // Default rollout settings (tick 1 s, reports every 2 s, silence 10 s); refresh-rate 0, Spring's default.
    server = await startConfbusServer({
      uri: pathToFileURL(repo.path).href,
      basedir: join(root.path, `mirror${suffix.trim()}`),
      refreshRate: 0,
      extraArgs: busArgs(bus),
    });
    // A new server (a fresh mirror) may open its port before it could read the rollouts' ref; until its next
    // sync it serves the head and refuses writes (docs/rollouts.md, limits), so the bench waits for it.
    if (round > 0)
      await until('the new server read the rollouts', async () =>
        (await json('GET', `${server.url}/-/rollouts`)).rollouts.length > 0 ? true : undefined,
      );
    proxy.retarget(server.url);
    clients = [];
    for (let index = 0; index < FLEET; index += 3)
      clients.push(
        ...(await Promise.all(
          Array.from({ length: Math.min(3, FLEET - index) }, (_, k) =>
            startRolloutClient(index + k, {
              configUri: proxy.url,
              bus: busArgs(bus),
              cwd: root.path,
            }),
          ),
        )),
      );
    // Interleaved, so that a burst of load from elsewhere hits both plans alike.
    for (let r = 0; r < ROUNDS; r++) {
      // The default plan: waves 1,5%,25%,100%, bake 300 s; its one canary turns DOWN.
      await measure(`default${suffix}`, ROUNDS, () => rollback({}, { comment: 'broken', all: 'broken' }));
      // A healthy tagged canary bakes 2 s, then 100%: the other canaries turn DOWN.
      const plan = { waves: [{ tags: { zone: 'first' } }, '100%'], bakeSeconds: 2 };
      await measure(`short${suffix}`, ROUNDS, () => rollback(plan, { comment: 'broken' }));
    }
    for (let r = 0; r < MANUAL_ROUNDS; r++) await measure(`manual${suffix}`, MANUAL_ROUNDS, manual);
    for (const client of clients) await client.stop();
    await server.stop();
  }
  details.push(`- load average after the rollback runs ${load()}`);
  await proxy.stop();
  return results;
}

const range = (runs) => {
  const ms = runs.map((r) => r.ms);
  return `${fmt(Math.min(...ms))}–${fmt(Math.max(...ms))} ms (median ${fmt(median(ms))})`;
};

const DEFAULTS = 'default settings and plan (tick 1 s, reports every 2 s; waves 1,5%,25%,100%, bake 300 s)';
const SHORT = 'short-bake plan (a tagged canary, bake 2 s, then 100%)';

export async function run({ log }) {
  const root = await makeTempDir('confbus-bench-rollouts-');
  const details = [];
  const results = await measureRollbacks({ root, log, details });
  const rows = [];
  for (const [name, label, goalMs] of [
    ['default', `${DEFAULTS}, bus`, 30_000],
    ['short', `${SHORT}, bus`, 5_000],
    ['default no-bus', `${DEFAULTS}, no bus`, 30_000],
    ['short no-bus', `${SHORT}, no bus`, 5_000],
  ]) {
    const runs = results[name];
    if (runs === undefined) continue;
    const manuals = results[name.endsWith('no-bus') ? 'manual no-bus' : 'manual'];
    const worst = runs.reduce((a, b) => (b.ms > a.ms ? b : a));
    rows.push({
      measure: `automatic rollback, ${label}: first DOWN report -> every canary serving A, worst of ${runs.length} runs, ms`,
      confbus: fmt(worst.ms),
      baseline: `by hand ${fmt(median(manuals.map((r) => r.ms)))}`,
      ratio: `${fmt(worst.ms / median(manuals.map((r) => r.ms)))}x`,
      goal: `<= ${goalMs} ms`,
      pass: worst.ms <= goalMs,
    });
    details.push(
      `- ${name}: ${range(runs)}; runs ${runs.map((r) => fmt(r.ms)).join(', ')}; judged ` +
        `${runs.map((r) => fmt(r.judgeMs)).join(', ')} ms after the first DOWN report; canaries ` +
        `${runs.map((r) => r.canaries).join(', ')}; back on A by ${[...new Set(runs.map((r) => r.triggers))].join(', ')}`,
      `- ${name}, worst run, its slowest canary: ${worst.slowest}`,
    );
  }
  for (const name of ['manual', 'manual no-bus'])
    if (results[name])
      details.push(
        `- by hand (baseline)${name === 'manual' ? ', bus' : ', no bus'}: ${range(results[name])}; back on A by ` +
          `${[...new Set(results[name].map((r) => r.triggers))].join(', ')}`,
      );
  if (IDLE) {
    details.push(`- cached GET: load average at start ${load()}`);
    const { throughput, cpu } = await measureIdleGet({
      root: root.path,
      files: { 'sample.yml': sampleYaml({ comment: 'first' }) },
    });
    rows.push(
      {
        measure:
          'cached GET, rollouts on and idle vs rollouts off: server CPU per request (ratio off/idle), µs',
        confbus: fmt(cpu.idle),
        baseline: fmt(cpu.off),
        ratio: `${fmt(cpu.ratio)}x`,
        goal: '>= 0.95x',
        pass: cpu.ratio >= 0.95,
      },
      {
        measure: 'cached GET, rollouts on and idle vs rollouts off (enabled=false), req/s',
        confbus: fmt(throughput.a.rps),
        baseline: fmt(throughput.b.rps),
        ratio: `${fmt(throughput.ratio)}x`,
        goal: '>= 0.95x',
        pass: throughput.ratio >= 0.95,
      },
    );
    const interval = throughput.ratioInterval?.map((r) => fmt(r)).join('–') ?? 'n/a';
    details.push(
      `- cached GET per-round throughput ratios: ${throughput.perRound.map((r) => fmt(r)).join(', ')} (95% interval of their median: ${interval})`,
      `- cached GET per-round CPU ratios (off/idle): ${cpu.perRound.map((r) => fmt(r)).join(', ')}; load average after ${load()}`,
    );
  }
  for (const line of details) log(line.slice(2));
  return { rows, sections: [{ title: 'Staged rollouts (bench/rollouts-bench.mjs)', lines: details }] };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { runBenches } = await import('./lib/runner.mjs');
  await runBenches([{ title, run }]);
}
