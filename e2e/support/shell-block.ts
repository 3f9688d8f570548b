/**
 * Runs a shell snippet as a reader pastes it into a terminal: `bash -e -c` in a session of its own. Everything
 * it starts stays in that session, also the jobs a snippet puts in process groups of their own (`set -m`), so
 * the session is what gets stopped, and nothing outlives the test. Linux: the session's members are read from
 * /proc.
 */
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';

/** How long what a snippet stopped (or left running) gets to exit once the snippet is over, before SIGKILL. */
const LEFTOVER_GRACE_MS = 30_000;

export interface ShellBlock {
  /** Everything written to standard output so far (the snippet's commands, the servers it started). */
  readonly stdout: () => string;
  /** Standard output and error interleaved, for failure messages. */
  readonly output: () => string;
  /** False once `finished` has resolved. */
  readonly running: () => boolean;
  /**
   * Resolves once the snippet has exited and every process it started has exited too (all output is in).
   * `killed`: processes still running a grace period after the snippet ended, which had to be killed.
   */
  readonly finished: Promise<{ code: number | null; killed: number[] }>;
  /** SIGTERM to every process of the session, then SIGKILL after `graceMs`; resolves when finished. */
  stop(graceMs?: number): Promise<{ code: number | null; killed: number[] }>;
}

export function startShellBlock(
  script: string,
  options: { cwd: string; env: NodeJS.ProcessEnv; deadlineMs: number },
): ShellBlock {
  const child = spawn('bash', ['-e', '-c', script], { cwd: options.cwd, env: options.env, detached: true });
  const session = child.pid; // detached: bash leads a new session
  if (session === undefined) throw new Error('could not start bash');
  let stdout = '';
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
    output += chunk.toString('utf8');
  });
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const killed: number[] = [];
  const signalSession = (signal: NodeJS.Signals): number[] => {
    const members = sessionMembers(session);
    for (const pid of members) {
      try {
        process.kill(pid, signal);
      } catch {
        // gone meanwhile
      }
    }
    return members;
  };
  // A safety net against a snippet that hangs: the test then fails on its output, it does not wait forever.
  const deadline = setTimeout(() => signalSession('SIGKILL'), options.deadlineMs);
  let leftovers: NodeJS.Timeout | undefined;
  const killAfter = (graceMs: number): void => {
    leftovers ??= setTimeout(() => killed.push(...signalSession('SIGKILL')), graceMs);
  };
  let code: number | null = null;
  let running = true;
  const finished = new Promise<{ code: number | null; killed: number[] }>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (exitCode) => {
      code = exitCode;
      clearTimeout(deadline);
      // What the snippet stopped gets to finish its graceful shutdown; what it left running does not linger.
      killAfter(LEFTOVER_GRACE_MS);
    });
    // 'close' comes once every process holding the pipes (the session's, in practice) has exited.
    child.on('close', () => {
      clearTimeout(leftovers);
      running = false;
      resolve({ code, killed });
    });
  });
  return {
    stdout: () => stdout,
    output: () => output,
    running: () => running,
    finished,
    stop(graceMs = LEFTOVER_GRACE_MS) {
      if (!running) return finished;
      signalSession('SIGTERM');
      killAfter(graceMs);
      return finished;
    },
  };
}

/** The processes of session `sid`: field 6 of /proc/<pid>/stat (after the parenthesised command name). */
function sessionMembers(sid: number): number[] {
  const members: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[3]) === sid) members.push(Number(entry));
    } catch {
      // exited while listing
    }
  }
  return members;
}
