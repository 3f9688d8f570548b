// Staged rollouts (issue #27): a `confbus server` on the bus (a RabbitMQ vhost of its own) and a fleet of real
// `confbus sample-client` processes (stable instance ids, the sample's injected fault: /health DOWN while a key
// has a given value) fetching through a recording proxy, so that the bench sees each health report arrive.
// Measured:
//   1. automatic rollback: from the first DOWN report of a canary (as it reaches the server) until every canary
//      serves commit A again (each canary's own "Keys refreshed" log line naming A: pino time, ms, same clock),
//      over several runs, worst included — with the default settings and plan (waves 1,5%,25%,100%, bake 300 s:
//      the one canary turns DOWN; goal <= 30 s), and with a short-bake plan (a healthy tagged canary, 2 s of
//      bake, then 100%: five canaries, four turn DOWN; goal <= 5 s). Baseline, same run: an operator's rollback
//      by hand (POST /rollouts/{id}/rollback until the canary serves A), the path without the judge;
//   2. the cached GET path with the rollouts feature on and idle (no rollout ever started, its Git store synced)
//      against the same server with confbus.server.rollouts.enabled=false (goal >= 0.95x).
// Run alone: `npx tsc -b && node bench/rollouts-bench.mjs` (CONFBUS_ROLLOUT_BENCH_FLEET / _ROUNDS to vary).
import { writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { onCleanup } from './lib/cleanup.mjs';
import { compareThroughput } from './lib/load.mjs';
import { startConfbusServer, startProcess } from './lib/processes.mjs';
import { startRecordingProxy } from './lib/recording-proxy.mjs';
import { createConfigRepo, git, makeTempDir } from './lib/repos.mjs';
import { fmt } from './lib/report.mjs';

export const title = 'Staged rollouts (automatic rollback, idle cost)';

const FLEET = Number(process.env.CONFBUS_ROLLOUT_BENCH_FLEET ?? 6);
const ROUNDS = Number(process.env.CONFBUS_ROLLOUT_BENCH_ROUNDS ?? 5);
const MANUAL_ROUNDS = Math.max(3, Math.ceil(ROUNDS / 2));
const CONFBUS_BIN = fileURLToPath(new URL('../packages/cli/bin/confbus.js', import.meta.url));
const { fetch } = globalThis;

/** `all: broken` makes every instance faulty, `comment: broken` every one but sample-0 (see startClient). */
const yaml = ({ comment, all = 'ok', round = 0 }) =>
  `group:\n  profile: base\n  comment: ${comment}\n  all: ${all}\n  round: ${round}\n`;

const sorted = (xs) => [...xs].sort((a, b) => a - b);
const median = (xs) => sorted(xs)[Math.floor((xs.length - 1) / 2)];
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');

/** Polls `check` (an async value, undefined while not there) every 50 ms; throws after `ms`. */
async function until(what, check, ms = 120_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await sleep(50);
  }
}

/**
 * `sample-<index>`: zone `first` for index 0, whose fault needs `group.all=broken`; `rest` for the others,
 * faulty on `group.comment=broken`. `applied` gets every refresh it logs: { at, version, trigger }.
 */
async function startClient(index, { configUri, vhost, cwd }) {
  const applied = [];
  const proc = await startProcess({
    name: `sample-client ${index}`,
    command: process.execPath,
    args: [
      CONFBUS_BIN,
      'sample-client',
      '--server.port=0',
      '--spring.application.name=sample',
      `--spring.cloud.config.uri=${configUri}`,
      `--confbus.client.instance-id=sample-${index}`,
      `--confbus.client.tags.zone=${index === 0 ? 'first' : 'rest'}`,
      `--sample.fault.when=${index === 0 ? 'group.all=broken' : 'group.comment=broken'}`,
      '--spring.cloud.bus.enabled=true',
      '--spring.rabbitmq.host=127.0.0.1',
      `--spring.rabbitmq.virtual-host=${vhost}`,
    ],
    cwd,
    env: { NODE_ENV: 'production' },
    ready: (line) => /Listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(line)?.[1],
    deadlineMs: 120_000,
  });
  proc.child.stdout.setEncoding('utf8');
  let rest = '';
  proc.child.stdout.on('data', (text) => {
    const lines = (rest + text).split('\n');
    rest = lines.pop();
    for (const line of lines) {
      if (!line.includes('"trigger"')) continue;
      try {
        const { time, version, trigger } = JSON.parse(line);
        if (version) applied.push({ at: Date.parse(time), version, trigger });
      } catch {
        // not a JSON log line
      }
    }
  });
  return { id: `sample-${index}`, applied, stop: proc.stop };
}

/** When `client` first logged serving `back` after it had served `away` (undefined: not yet). */
function backAt(client, away, back) {
  const left = client.applied.findLastIndex((a) => a.version === away);
  if (left < 0) return undefined;
  return client.applied.slice(left + 1).find((a) => a.version === back);
}

async function json(method, url, body) {
  const response = await fetch(url, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${url} answered ${response.status}: ${text}`);
  return JSON.parse(text);
}

/** The rollback measurements on one fleet: `{ scenario: [{ ms, judgeMs, canaries, triggers }] }`. */
async function measureRollbacks({ root, log, details }) {
  const repo = await createConfigRepo(root.path, 'config', { 'sample.yml': yaml({ comment: 'first' }) });
  const A = repo.initial;
  const work = join(root.path, 'config-work');
  let round = 0;
  /** A commit on the side branch `next` (served to nobody until a rollout names it); master stays on A. */
  const stage = async (fields) => {
    await git(work, 'checkout', '--quiet', '-B', 'next', A);
    await writeFile(join(work, 'sample.yml'), yaml({ ...fields, round: ++round }));
    await git(work, 'commit', '--quiet', '-am', `bench: round ${round}`);
    await git(work, 'push', '--quiet', '--force', 'origin', 'next');
    const commit = (await git(work, 'rev-parse', 'HEAD')).trim();
    await git(work, 'checkout', '--quiet', 'master');
    return commit;
  };
  const { createTestVhost } = await tsImport('@confbus/testkit/rabbit-vhost', import.meta.url);
  const vhost = await createTestVhost();
  onCleanup(() => vhost.remove());
  const bus = [
    '--spring.cloud.bus.enabled=true',
    '--spring.rabbitmq.host=127.0.0.1',
    `--spring.rabbitmq.virtual-host=${vhost.name}`,
  ];
  // Default rollout settings: tick 1 s, reports every 2 s, silence 10 s.
  const server = await startConfbusServer({
    uri: pathToFileURL(repo.path).href,
    basedir: join(root.path, 'mirror'),
    refreshRate: 0,
    extraArgs: bus,
  });
  const downs = [];
  const proxy = await startRecordingProxy(server.url, ({ method, url, body, headers, at }) => {
    if (method !== 'POST' || !url.endsWith('/rollouts/reports')) return;
    const report = JSON.parse(body.toString('utf8'));
    if (report.status !== 'UP')
      downs.push({ at, version: report.version, instance: headers['x-confbus-instance-id'] });
  });
  const clients = [];
  for (let index = 0; index < FLEET; index += 3)
    clients.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(3, FLEET - index) }, (_, k) =>
          startClient(index + k, { configUri: proxy.url, vhost: vhost.name, cwd: root.path }),
        ),
      )),
    );
  const byId = new Map(clients.map((c) => [c.id, c]));
  const view = (id) => json('GET', `${server.url}/rollouts/${id}`);

  /** One bad push: started, judged, rolled back; timed from the first DOWN report to every canary on A. */
  const rollback = async (plan, fields) => {
    const C = await stage(fields);
    const started = await json('POST', `${server.url}/rollouts`, {
      application: 'sample',
      from: A,
      to: C,
      ...plan,
    });
    const ended = await until('the rollout rolls back', async () => {
      const v = await view(started.id);
      return v.status === 'rolled-back' ? v : undefined;
    });
    const canaries = ended.instances.filter((i) => i.served.includes(C)).map((i) => byId.get(i.id));
    const back = await until(
      'every canary serves A again',
      async () => {
        const times = canaries.map((c) => backAt(c, C, A));
        return times.every(Boolean) ? times : undefined;
      },
      60_000,
    );
    const first = Math.min(...downs.filter((d) => d.version === C).map((d) => d.at));
    const decision = ended.decisions.at(-1);
    if (decision.by !== 'judge') throw new Error(`rolled back by ${decision.by}: ${decision.reason}`);
    return {
      ms: Math.max(...back.map((b) => b.at)) - first,
      judgeMs: decision.at - first,
      canaries: canaries.length,
      triggers: [...new Set(back.map((b) => b.trigger))].join('+'),
    };
  };

  /** The baseline: a healthy canary (tag `first`) on B, rolled back by hand; timed from the POST. */
  const manual = async () => {
    const B = await stage({ comment: 'good' });
    const started = await json('POST', `${server.url}/rollouts`, {
      application: 'sample',
      from: A,
      to: B,
      waves: [{ tags: { zone: 'first' } }],
      bakeSeconds: 3600,
    });
    await until('the tagged canary serves B', async () =>
      clients[0].applied.some((a) => a.version === B) ? true : undefined,
    );
    const t0 = Date.now();
    await json('POST', `${server.url}/rollouts/${started.id}/rollback`, { reason: 'bench' });
    const back = await until('the canary serves A again', async () => backAt(clients[0], B, A), 60_000);
    return { ms: back.at - t0, triggers: back.trigger };
  };

  const results = { default: [], short: [], manual: [] };
  const scenarios = [
    ['default', {}, { comment: 'broken', all: 'broken' }],
    ['short', { waves: [{ tags: { zone: 'first' } }, '100%'], bakeSeconds: 2 }, { comment: 'broken' }],
  ];
  details.push(`- fleet: ${FLEET} sample-client processes on the bus; load average at start ${load()}`);
  for (let r = 0; r < ROUNDS; r++)
    for (const [name, plan, fields] of scenarios) {
      const result = await rollback(plan, fields);
      results[name].push(result);
      log(
        `${name} ${r + 1}/${ROUNDS}: ${fmt(result.ms)} ms (judged ${fmt(result.judgeMs)} ms after the report; ` +
          `${result.canaries} canaries back by ${result.triggers}; load ${load()})`,
      );
    }
  for (let r = 0; r < MANUAL_ROUNDS; r++) {
    results.manual.push(await manual());
    log(
      `manual ${r + 1}/${MANUAL_ROUNDS}: ${fmt(results.manual.at(-1).ms)} ms (${results.manual.at(-1).triggers})`,
    );
  }
  details.push(`- load average after the rollback runs ${load()}`);
  for (const client of clients) await client.stop();
  await proxy.stop();
  await server.stop();
  return results;
}

async function measureIdleGet({ root, details }) {
  const repo = await createConfigRepo(root.path, 'idle', { 'sample.yml': yaml({ comment: 'first' }) });
  const start = (name, extraArgs) =>
    startConfbusServer({
      uri: pathToFileURL(repo.path).href,
      basedir: join(root.path, name),
      refreshRate: 3600,
      extraArgs: ['--spring.cloud.bus.enabled=false', ...extraArgs],
    });
  const idle = await start('idle', []);
  const off = await start('off', ['--confbus.server.rollouts.enabled=false']);
  try {
    details.push(`- cached GET: load average at start ${load()}`);
    // A confbus client's fetch: it names its instance.
    const headers = { 'x-confbus-instance-id': 'sample-0', 'x-confbus-instance-tags': 'zone=first' };
    const url = (server) => `${server.url}/sample/default`;
    for (const server of [idle, off]) await json('GET', url(server));
    return await compareThroughput({
      a: url(idle),
      b: url(off),
      rounds: 6,
      balanced: true,
      headers: { a: headers, b: headers },
    });
  } finally {
    await idle.stop();
    await off.stop();
  }
}

const range = (runs) => {
  const ms = runs.map((r) => r.ms);
  return `${fmt(Math.min(...ms))}–${fmt(Math.max(...ms))} ms (median ${fmt(median(ms))})`;
};

export async function run({ log }) {
  const root = await makeTempDir('confbus-bench-rollouts-');
  const details = [];
  const results = await measureRollbacks({ root, log, details });
  const cached = await measureIdleGet({ root, details });
  const manualMedian = median(results.manual.map((r) => r.ms));
  const row = (name, label, goalMs) => {
    const worst = Math.max(...results[name].map((r) => r.ms));
    return {
      measure: `automatic rollback, ${label}: first DOWN report -> every canary serving A, worst of ${results[name].length} runs, ms`,
      confbus: fmt(worst),
      baseline: `by hand ${fmt(manualMedian)}`,
      ratio: `${fmt(worst / manualMedian)}x`,
      goal: `<= ${goalMs} ms`,
      pass: worst <= goalMs,
    };
  };
  const rows = [
    row(
      'default',
      'default settings and plan (tick 1 s, reports 2 s; waves 1,5%,25%,100%, bake 300 s)',
      30_000,
    ),
    row('short', 'short-bake plan (tagged canary, bake 2 s, then 100%)', 5_000),
    {
      measure: 'cached GET, rollouts on and idle vs rollouts off (enabled=false), req/s',
      confbus: fmt(cached.a.rps),
      baseline: fmt(cached.b.rps),
      ratio: `${fmt(cached.ratio)}x`,
      goal: '>= 0.95x',
      pass: cached.ratio >= 0.95,
    },
  ];
  for (const [name, label] of [
    ['default', 'default plan'],
    ['short', 'short-bake plan'],
  ]) {
    const runs = results[name];
    details.push(
      `- ${label}: ${range(runs)}; runs ${runs.map((r) => fmt(r.ms)).join(', ')}; judged ` +
        `${runs.map((r) => fmt(r.judgeMs)).join(', ')} ms after the first DOWN report; canaries ` +
        `${runs.map((r) => r.canaries).join(', ')}; back on A by ${[...new Set(runs.map((r) => r.triggers))].join(', ')}`,
    );
  }
  details.push(
    `- by hand (baseline): ${range(results.manual)}, back on A by ${[...new Set(results.manual.map((r) => r.triggers))].join(', ')}`,
    `- cached GET per-round ratios: ${cached.perRound.map((r) => fmt(r)).join(', ')}`,
  );
  for (const line of details) log(line.slice(2));
  return { rows, sections: [{ title: 'Staged rollouts (bench/rollouts-bench.mjs)', lines: details }] };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { runBenches } = await import('./lib/runner.mjs');
  await runBenches([{ title, run }]);
}
