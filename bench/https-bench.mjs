// HTTPS cost on the cached path (issue #28): cached GET throughput of a confbus server serving HTTPS (a PEM
// certificate made by openssl) against the same server on plain HTTP, in alternating rounds of the same run,
// on kept-alive connections (the handshake is paid once per connection, as the confbus client does).
// Run alone: `node bench/https-bench.mjs`.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { onCleanup } from './lib/cleanup.mjs';
import { withServersPinnedApart } from './lib/cpu-affinity.mjs';
import { compareThroughput, get } from './lib/load.mjs';
import { startConfbusServer } from './lib/processes.mjs';
import { createConfigRepo, makeTempDir, sampleConfigFiles } from './lib/repos.mjs';
import { fmt } from './lib/report.mjs';

export const title = 'HTTPS';

const CONNECTIONS = 50;
const ROUNDS = 3;

export async function run({ log }) {
  const root = await makeTempDir('confbus-bench-https-');
  const repo = await createConfigRepo(root.path, 'repo', sampleConfigFiles());
  const { TlsAuthority } = await tsImport('@confbus/testkit/tls-authority', import.meta.url);
  const ca = await TlsAuthority.create(root.path);
  const cert = await ca.issue('127.0.0.1', { file: 'server' });
  const common = { uri: repo.path, refreshRate: 60 };
  const plain = await startConfbusServer({ ...common, basedir: join(root.path, 'plain') });
  onCleanup(() => plain.stop());
  const secure = await startConfbusServer({
    ...common,
    basedir: join(root.path, 'secure'),
    extraArgs: [`--server.ssl.certificate=${cert.cert}`, `--server.ssl.certificate-private-key=${cert.key}`],
  });
  onCleanup(() => secure.stop());
  const path = '/foo/dev';
  if ((await get(plain.url + path)).status !== 200) throw new Error(`GET ${plain.url}${path} failed`);
  log(`cached GET ${path}: HTTPS (${secure.url}) vs HTTP (${plain.url}), ${ROUNDS} alternating rounds`);
  const { pinned, result: cmp } = await withServersPinnedApart([secure.child.pid, plain.child.pid], () =>
    compareThroughput({
      a: secure.url + path,
      b: plain.url + path,
      connections: CONNECTIONS,
      rounds: ROUNDS,
      balanced: true,
    }),
  );
  const { a: https, b: http, ratio } = cmp;
  const rounds = (x) => x.rounds.map((r) => fmt(r)).join(' / ');
  return {
    rows: [
      {
        measure: 'cached GET over HTTPS vs plain HTTP, req/s (keep-alive)',
        confbus: fmt(https.rps),
        baseline: `${fmt(http.rps)} (same server, HTTP)`,
        ratio: `${fmt(ratio)}x`,
        // Measured and reported (issue #28 asks for the ratio, sets no goal); the load generator decrypts too.
        goal: 'reported',
        pass: null,
      },
    ],
    sections: [
      {
        title: 'HTTPS (bench/https-bench.mjs)',
        lines: [
          `- ${CONNECTIONS} kept-alive connections, TLS 1.3 with an RSA-2048 certificate, ${ROUNDS} alternating 4 s rounds ` +
            `(${pinned ? 'servers pinned to the last core' : 'not pinned'}): HTTPS ${fmt(https.rps)} req/s (${rounds(https)}), ` +
            `p99 ${https.p99} ms, failed ${https.failed}; HTTP ${fmt(http.rps)} req/s (${rounds(http)}), p99 ${http.p99} ms, ` +
            `failed ${http.failed}; per-round ratios ${cmp.perRound.map((r) => fmt(r)).join(' / ')}`,
        ],
      },
    ],
  };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { runBenches } = await import('./lib/runner.mjs');
  await runBenches([{ title, run }]);
}
