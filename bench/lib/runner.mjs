// Runs bench modules in sequence and collects their rows. A bench module exports
//   title: string
//   run({ log }): Promise<{ rows: Row[], sections: { title, lines: string[] }[] }>
// (Row: see report.mjs). Modules catch their own measurement errors and report them as rows, so one
// broken measurement does not hide the others.
import { performance } from 'node:perf_hooks';
import { cleanupOnSignals, runCleanups } from './cleanup.mjs';
import { formatTable, machineInfo, writeBenchmarksMd } from './report.mjs';

const started = performance.now();
export function log(message) {
  const s = ((performance.now() - started) / 1000).toFixed(1).padStart(6);
  console.error(`[${s}s] ${message}`);
}

/** `benches`: bench modules, or URLs to import. Writes BENCHMARKS.md to `markdownPath` when given. */
export async function runBenches(benches, { markdownPath } = {}) {
  cleanupOnSignals();
  const machine = machineInfo();
  const rows = [];
  const sections = [];
  try {
    for (const bench of benches) {
      const mod = typeof bench === 'string' ? await import(bench) : bench;
      log(`== ${mod.title}`);
      const result = await mod.run({ log });
      rows.push(...result.rows);
      sections.push(...result.sections);
    }
  } finally {
    await runCleanups();
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `\nconfbus benchmarks - ${machine.cpu}, ${machine.cores} cores, Node ${machine.node}, git ${machine.git}\n`,
  );
  console.log(formatTable(rows));
  console.log(`\n(${seconds.toFixed(0)} s; goals are reported, not enforced)`);
  if (markdownPath) {
    await writeBenchmarksMd(markdownPath, { rows, machine, sections, seconds });
    log(`wrote ${markdownPath}`);
  }
  return rows;
}
