// Several repositories (issue #9): cached GET throughput of a server with 20 named repositories configured
// (repos.team-N, pattern team-N*) against one with only the default repository, same request, same files.
// The 20-repository server routes /foo/dev past all 20 patterns to the default repository (the slowest
// case), and /team-7/dev to a named one. Goal: >= 0.95x. Run alone: `node bench/repositories-bench.mjs`.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { onCleanup } from './lib/cleanup.mjs';
import { withServersPinnedApart } from './lib/cpu-affinity.mjs';
import { compareThroughput, get } from './lib/load.mjs';
import { startConfbusServer } from './lib/processes.mjs';
import { createConfigRepo, makeTempDir, sampleConfigFiles } from './lib/repos.mjs';
import { fmt } from './lib/report.mjs';

export const title = 'Several repositories';

const REPOSITORIES = 20;
const CONNECTIONS = 50;
/** Alternating rounds per comparison: enough for the median to resolve a 5% goal. */
const ROUNDS = 5;

async function getOk(url) {
  const res = await get(url);
  if (res.status !== 200)
    throw new Error(`GET ${url} answered ${res.status}: ${res.body.toString().slice(0, 300)}`);
  return res;
}

export async function run({ log }) {
  const rows = [];
  const details = [];
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
  const one = await startConfbusServer({
    uri: daemon.url('default.git'),
    basedir: join(root.path, 'one'),
    refreshRate: 60,
  });
  const twenty = await startConfbusServer({
    uri: daemon.url('default.git'),
    basedir: join(root.path, 'twenty'),
    refreshRate: 60,
    extraArgs: repos,
  });
  try {
    for (const [path, label] of [
      ['/foo/dev', 'default repository, past 20 patterns'],
      ['/team-7/dev', 'a named repository'],
    ]) {
      await getOk(one.url + '/foo/dev');
      await getOk(twenty.url + path);
      log(`cached GET ${path} with ${REPOSITORIES} repositories vs 1 (alternating rounds)`);
      const { pinned, result } = await withServersPinnedApart([twenty.child.pid, one.child.pid], () =>
        compareThroughput({
          a: twenty.url + path,
          b: one.url + '/foo/dev',
          connections: CONNECTIONS,
          rounds: ROUNDS,
        }),
      );
      const { a, b, ratio } = result;
      rows.push({
        measure: `cached GET throughput, req/s, ${REPOSITORIES} repositories vs 1 (${label})`,
        confbus: `${fmt(a.rps)} (${REPOSITORIES} repos, ${path})`,
        baseline: `${fmt(b.rps)} (1 repo, /foo/dev)`,
        ratio: `${fmt(ratio)}x`,
        goal: '>= 0.95x',
        pass: ratio >= 0.95,
      });
      details.push(
        `- ${path} on the ${REPOSITORIES}-repository server: ${a.rounds.map((rps) => fmt(rps)).join(' / ')} req/s per round, ` +
          `p99 ${a.p99} ms, failed ${a.failed}; one repository: ${b.rounds.map((rps) => fmt(rps)).join(' / ')} req/s, p99 ${b.p99} ms; ` +
          `ratio = median of per-round ratios; ${pinned ? 'servers pinned to the last core, the load generator to the others' : 'not pinned (no taskset)'}`,
      );
    }
  } finally {
    await one.stop();
    await twenty.stop();
    await root.remove?.();
  }
  return {
    rows,
    sections: [{ title: 'Several repositories (bench/repositories-bench.mjs)', lines: details }],
  };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { runBenches } = await import('./lib/runner.mjs');
  await runBenches([{ title, run }]);
}
