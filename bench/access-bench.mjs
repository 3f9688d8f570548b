// Per-application access on the cached path (issue #28, goal: the checks cost at most 5%): cached GET
// throughput of one confbus server with the one Spring user (spring.security.user.*) against the same server
// with 50 clients (confbus.security.clients.*, each with application patterns, bcrypt passwords), in
// alternating rounds of the same run. Both have credentials on, so both answer repeats on the fast path after
// the same verified-header lookup; the difference is the principal's pattern check on every request.
// Run alone: `node bench/access-bench.mjs`.
import { Buffer } from 'node:buffer';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import bcrypt from 'bcryptjs';
import { onCleanup } from './lib/cleanup.mjs';
import { withServersPinnedApart } from './lib/cpu-affinity.mjs';
import { compareThroughput, get } from './lib/load.mjs';
import { startConfbusServer } from './lib/processes.mjs';
import { createConfigRepo, makeTempDir, sampleConfigFiles } from './lib/repos.mjs';
import { fmt } from './lib/report.mjs';

export const title = 'Per-application access';

const CONNECTIONS = 50;
const ROUNDS = 6;
const CLIENTS = 50;
const GOAL = 0.95;

const basic = (user, password) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/** 50 clients, each with a bcrypt password (cost 10, as Spring's BCryptPasswordEncoder) and a few patterns. */
function clientArgs() {
  const args = [];
  for (let i = 0; i < CLIENTS; i++) {
    const prefix = `--confbus.security.clients.client${i}`;
    args.push(`${prefix}.password={bcrypt}${bcrypt.hashSync(`password-${i}`, 10)}`);
    // The measured client (the last) reads foo through its second pattern; the others never match foo.
    const patterns =
      i === CLIENTS - 1 ? ['bar-*', 'fo*', 'team-*-svc'] : [`svc${i}`, `svc${i}-*`, `team-${i}-*`];
    args.push(`${prefix}.applications=${patterns.join(',')}`);
    args.push(`${prefix}.profiles=dev,prod,default`);
  }
  return args;
}

export async function run({ log }) {
  const root = await makeTempDir('confbus-bench-access-');
  const repo = await createConfigRepo(root.path, 'repo', sampleConfigFiles());
  const common = { uri: repo.path, refreshRate: 60 };
  const oneUser = await startConfbusServer({
    ...common,
    basedir: join(root.path, 'one-user'),
    extraArgs: ['--spring.security.user.name=user', '--spring.security.user.password=user-password'],
  });
  onCleanup(() => oneUser.stop());
  const manyClients = await startConfbusServer({
    ...common,
    basedir: join(root.path, 'many'),
    extraArgs: ['--spring.security.user.password=user-password', ...clientArgs()],
  });
  onCleanup(() => manyClients.stop());
  const path = '/foo/dev';
  const headers = {
    a: { authorization: basic(`client${CLIENTS - 1}`, `password-${CLIENTS - 1}`) },
    b: { authorization: basic('user', 'user-password') },
  };
  for (const [url, side] of [
    [manyClients.url, 'a'],
    [oneUser.url, 'b'],
  ]) {
    const response = await get(url + path, undefined, headers[side]);
    if (response.status !== 200) throw new Error(`GET ${url}${path} answered ${response.status}`);
  }
  const refused = await get(`${manyClients.url}/svc1/dev`, undefined, headers.a);
  if (refused.status !== 403)
    throw new Error(`another application's URL answered ${refused.status}, not 403`);
  log(`cached GET ${path}: ${CLIENTS} clients with patterns vs one user, ${ROUNDS} alternating rounds`);
  const { pinned, result: cmp } = await withServersPinnedApart(
    [manyClients.child.pid, oneUser.child.pid],
    () =>
      compareThroughput({
        a: manyClients.url + path,
        b: oneUser.url + path,
        headers,
        connections: CONNECTIONS,
        rounds: ROUNDS,
        balanced: true,
      }),
  );
  const { a: many, b: one, ratio } = cmp;
  const rounds = (x) => x.rounds.map((r) => fmt(r)).join(' / ');
  const interval = cmp.ratioInterval
    ? ` (95% interval ${cmp.ratioInterval.map((r) => fmt(r)).join('–')})`
    : '';
  const detail =
    `- ${CONNECTIONS} kept-alive connections, ${ROUNDS} alternating 4 s rounds ` +
    `(${pinned ? 'servers pinned to the last core' : 'not pinned'}): ${CLIENTS} clients ${fmt(many.rps)} req/s ` +
    `(${rounds(many)}), p99 ${many.p99} ms, failed ${many.failed}; one user ${fmt(one.rps)} req/s ` +
    `(${rounds(one)}), p99 ${one.p99} ms, failed ${one.failed}; per-round ratios ` +
    `${cmp.perRound.map((r) => fmt(r)).join(' / ')}${interval}`;
  log(detail);
  return {
    rows: [
      {
        measure: `cached GET, ${CLIENTS} clients with application patterns vs one user, req/s`,
        confbus: fmt(many.rps),
        baseline: `${fmt(one.rps)} (same server, one user)`,
        ratio: `${fmt(ratio)}x`,
        goal: `>= ${GOAL}x`,
        pass: ratio >= GOAL,
      },
    ],
    sections: [
      {
        title: 'Per-application access (bench/access-bench.mjs)',
        lines: [detail],
      },
    ],
  };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { runBenches } = await import('./lib/runner.mjs');
  await runBenches([{ title, run }]);
}
