// `npm run bench`: runs every benchmark file, prints one table and rewrites BENCHMARKS.md.
// Figures never fail the run (each goal is printed as PASS/MISS); only a broken harness exits non-zero.
import { fileURLToPath } from 'node:url';
import { runBenches } from './lib/runner.mjs';

const BENCHES = [
  './server-bench.mjs',
  './jdbc-bench.mjs',
  './https-bench.mjs',
  './access-bench.mjs',
  './repositories-bench.mjs',
  './spring-bench.mjs',
  './client-bench.mjs',
  './bus-bench.mjs',
  './process-fleet-bench.mjs',
  './bus-kafka-bench.mjs',
  './encryption-bench.mjs',
  './console-bench.mjs',
  './watch-bench.mjs',
  './run-bench.mjs',
  './contracts-bench.mjs',
  './contracts-gate-bench.mjs',
  './process-state-bench.mjs',
  './rollouts-bench.mjs',
];

await runBenches(
  BENCHES.map((b) => new URL(b, import.meta.url).href),
  { markdownPath: fileURLToPath(new URL('../BENCHMARKS.md', import.meta.url)) },
);
