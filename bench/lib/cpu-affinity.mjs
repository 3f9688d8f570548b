// Keeps the load generator and the servers it measures on different cores (Linux `taskset`), so that a
// throughput comparison measures the servers, not the scheduler's placement of four busy threads on two cores:
// the servers share the last core (they run one at a time), this process and its threads keep the others.
// Without taskset, or with one core, nothing is pinned and the run says so.
import { execFile } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { promisify } from 'node:util';

const exec = promisify(execFile);

/** Runs `measure` with `serverPids` pinned apart from this process; affinities are restored afterwards. */
export async function withServersPinnedApart(serverPids, measure) {
  const cores = availableParallelism();
  const all = `0-${cores - 1}`;
  const pin = async (pid, list) => exec('taskset', ['--all-tasks', '--cpu-list', '--pid', list, String(pid)]);
  let pinned = false;
  if (cores >= 2) {
    try {
      for (const pid of serverPids) await pin(pid, String(cores - 1));
      await pin(process.pid, cores === 2 ? '0' : `0-${cores - 2}`);
      pinned = true;
    } catch {
      // no taskset here: measured unpinned
    }
  }
  try {
    return { pinned, result: await measure() };
  } finally {
    if (pinned) {
      await pin(process.pid, all).catch(() => undefined);
      for (const pid of serverPids) await pin(pid, all).catch(() => undefined);
    }
  }
}
