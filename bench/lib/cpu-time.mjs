// CPU time (user + system) a process has used so far, read from /proc/<pid>/stat, for per-unit costs of
// processes the benchmark does not run in-process (the server, fleet workers, the broker). Linux only.
import { readFile } from 'node:fs/promises';

/** Clock ticks per second of /proc's utime/stime: 100 on every Linux build Node supports. */
const TICKS_PER_SECOND = 100;

/** Milliseconds of CPU used by `pid` (10 ms resolution). */
export async function cpuMs(pid) {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which may hold spaces, ends with ')'; utime and stime are 14th and 15th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/** CPU ms of several processes together. */
export async function totalCpuMs(pids) {
  const each = await Promise.all(pids.map((pid) => cpuMs(pid)));
  return each.reduce((a, b) => a + b, 0);
}
