// Several repositories (issue #9): cached GET throughput of a server with 20 named repositories configured
// (repos.team-N, pattern team-N*) against one with only the default repository, same request, same files.
// The 20-repository server routes /foo/dev past all 20 patterns to the default repository (the slowest
// case), and /team-7/dev to a named one. Goal: >= 0.95x. Each comparison runs on fresh pairs of processes, with
// a control pair of two one-repository servers measured the same way (docs/benchmarks.md says why: a process
// keeps the speed it starts with). Run alone: `node bench/repositories-bench.mjs`.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { onCleanup } from './lib/cleanup.mjs';
import { withServersPinnedApart } from './lib/cpu-affinity.mjs';
import { compareThroughput, get, median } from './lib/load.mjs';
import { startConfbusServer } from './lib/processes.mjs';
import { createConfigRepo, makeTempDir, sampleConfigFiles } from './lib/repos.mjs';
import { fmt } from './lib/report.mjs';

export const title = 'Several repositories';

const REPOSITORIES = 20;
const CONNECTIONS = 50;
/**
 * Fresh pairs of server processes per comparison. One pair cannot resolve a 5% goal: a process keeps the speed
 * it started with, and two identical one-repository servers differ by up to ±10% (the control row measures it
 * in every run), so the row's ratio is the median over pairs, each pair's the median of its alternating rounds.
 */
const PAIRS = 3;
const ROUNDS = 3;

async function getOk(url) {
  const res = await get(url);
  if (res.status !== 200)
    throw new Error(`GET ${url} answered ${res.status}: ${res.body.toString().slice(0, 300)}`);
  return res;
}

export async function run({ log }) {
  const root = await makeTempDir('confbus-bench-repos-');
  const reposDir = join(root.path, 'repos');
  await mkdir(reposDir);
  log(`creating ${REPOSITORIES + 1} repositories`);
  await createConfigRepo(reposDir, 'default', sampleConfigFiles());
  for (let i = 0; i < REPOSITORIES; i++) {
    await createConfigRepo(reposDir, `team-${i}`, {
      [`team-${i}.yml`]: `team: ${i}\n`,
      ...sampleConfigFiles(),
    });
  }
  const { startGitDaemon } = await tsImport('@confbus/testkit/git-daemon', import.meta.url);
  const daemon = await startGitDaemon(reposDir);
  onCleanup(() => daemon.stop());
  const repos = Array.from({ length: REPOSITORIES }, (_, i) => [
    `--spring.cloud.config.server.git.repos.team-${i}.uri=${daemon.url(`team-${i}.git`)}`,
    `--spring.cloud.config.server.git.repos.team-${i}.pattern=team-${i}*`,
    `--spring.cloud.config.server.git.repos.team-${i}.refresh-rate=60`,
  ]).flat();
  let servers = 0;
  const start = (extraArgs = []) =>
    startConfbusServer({
      uri: daemon.url('default.git'),
      basedir: join(root.path, `server-${servers++}`),
      refreshRate: 60,
      extraArgs,
    });
  const comparisons = [
    { path: '/foo/dev', label: 'default repository, past 20 patterns', goal: true },
    { path: '/team-7/dev', label: 'a named repository', goal: true },
    { path: '/foo/dev', label: 'control: 1 repository against 1', goal: false },
  ];
  const pairRatios = comparisons.map(() => []);
  const details = [];
  try {
    for (let pair = 0; pair < PAIRS; pair++) {
      for (const [index, { path, label, goal }] of comparisons.entries()) {
        const a = await start(goal ? repos : []);
        const b = await start();
        try {
          await getOk(a.url + path);
          await getOk(b.url + '/foo/dev');
          log(`pair ${pair + 1}/${PAIRS}: cached GET ${path}, ${label}`);
          const { pinned, result } = await withServersPinnedApart([a.child.pid, b.child.pid], () =>
            compareThroughput({
              a: a.url + path,
              b: b.url + '/foo/dev',
              connections: CONNECTIONS,
              rounds: ROUNDS,
            }),
          );
          pairRatios[index].push(result.ratio);
          details.push(
            `- pair ${pair + 1}, ${path} (${label}): ${result.a.rounds.map((rps) => fmt(rps)).join(' / ')} req/s against ` +
              `${result.b.rounds.map((rps) => fmt(rps)).join(' / ')} req/s (one repository), ratio ${fmt(result.ratio)}x, ` +
              `p99 ${result.a.p99} / ${result.b.p99} ms, failed ${result.a.failed + result.b.failed}; ` +
              `${pinned ? 'servers pinned to the last core, the load generator to the others' : 'not pinned (no taskset)'}`,
          );
        } finally {
          await a.stop();
          await b.stop();
        }
      }
    }
  } finally {
    await root.remove?.();
  }
  const rows = comparisons.map(({ path, label, goal }, index) => {
    const ratios = pairRatios[index];
    const ratio = median(ratios);
    const range = `${fmt(Math.min(...ratios))}-${fmt(Math.max(...ratios))}x over ${ratios.length} pairs`;
    return {
      measure: goal
        ? `cached GET throughput, ${REPOSITORIES} repositories vs 1 (${label}), median of fresh server pairs`
        : `cached GET throughput, ${label} (noise floor of the rows above)`,
      confbus: goal ? `${REPOSITORIES} repos, ${path}` : `1 repo, ${path}`,
      baseline: '1 repo, /foo/dev',
      ratio: `${fmt(ratio)}x (${range})`,
      goal: goal ? '>= 0.95x' : '-',
      pass: goal ? ratio >= 0.95 : null,
    };
  });
  return {
    rows,
    sections: [{ title: 'Several repositories (bench/repositories-bench.mjs)', lines: details }],
  };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { runBenches } = await import('./lib/runner.mjs');
  await runBenches([{ title, run }]);
}
