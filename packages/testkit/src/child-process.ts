/**
 * Starts child processes for tests (Node scripts, and other programs such as the Java peers) and lets
 * them wait on log lines instead of sleeping. Every process started here is tracked so
 * `stopAllNodeProcesses()` (call it from `after`) can make sure none outlives the test file.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface NodeProcess {
  readonly pid: number;
  /** stdout and stderr lines, in arrival order (each stream's own order is exact). */
  readonly lines: readonly string[];
  readonly stdout: readonly string[];
  readonly stderr: readonly string[];
  /** Resolves with the first line (already seen or future) matching `pattern`. */
  waitForLine(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** Resolves with the exit code (or signal name) once the process has exited. */
  readonly exited: Promise<number | string>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once the process is gone. */
  stop(graceMs?: number): Promise<number | string>;
}

const running = new Set<NodeProcess>();

export function startNodeProcess(
  script: string,
  args: readonly string[] = [],
  env: Readonly<Record<string, string | undefined>> = {},
  options: { nodeArgs?: readonly string[]; cwd?: string } = {},
): NodeProcess {
  return startProcess(process.execPath, [...(options.nodeArgs ?? []), script, ...args], env, {
    cwd: options.cwd,
    name: script,
  });
}

/** Starts `command args` (not through a shell); `name` is how errors refer to it (default: command). */
export function startProcess(
  command: string,
  args: readonly string[] = [],
  env: Readonly<Record<string, string | undefined>> = {},
  options: { cwd?: string; name?: string } = {},
): NodeProcess {
  const script = options.name ?? command;
  const child: ChildProcess = spawn(command, args, {
    cwd: options.cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // A missing executable is reported through 'error' (after spawn returns): keep it from crashing the
  // test process; the pid check below reports it.
  child.once('error', () => undefined);
  if (child.pid === undefined) throw new Error(`Could not start ${script}`);
  const lines: string[] = [];
  const stdout: string[] = [];
  const stderr: string[] = [];
  const waiters = new Set<{ pattern: RegExp; resolve: (line: string) => void }>();

  const onLine = (target: string[]) => (line: string) => {
    target.push(line);
    lines.push(line);
    for (const waiter of waiters) {
      if (waiter.pattern.test(line)) {
        waiters.delete(waiter);
        waiter.resolve(line);
      }
    }
  };
  createInterface({ input: child.stdout! }).on('line', onLine(stdout));
  createInterface({ input: child.stderr! }).on('line', onLine(stderr));

  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'));
  });

  const handle: NodeProcess = {
    pid: child.pid,
    lines,
    stdout,
    stderr,
    exited,
    waitForLine(pattern, timeoutMs = 30_000) {
      const seen = lines.find((line) => pattern.test(line));
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise<string>((resolve, reject) => {
        const waiter = {
          pattern,
          resolve: (line: string) => {
            clearTimeout(timer);
            resolve(line);
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(
            new Error(
              `No line matching ${pattern} from ${script} within ${timeoutMs} ms. Output so far:\n${lines.join('\n')}`,
            ),
          );
        }, timeoutMs);
        waiters.add(waiter);
        // A process that dies cannot print the line any more: fail at once with its output.
        void exited.then((code) => {
          if (!waiters.has(waiter)) return;
          waiters.delete(waiter);
          clearTimeout(timer);
          reject(
            new Error(`${script} exited (${code}) before printing ${pattern}. Output:\n${lines.join('\n')}`),
          );
        });
      });
    },
    async stop(graceMs = 5_000) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
        await exited;
        clearTimeout(timer);
      }
      running.delete(handle);
      return exited;
    },
  };
  running.add(handle);
  return handle;
}

/** Stops every process started by this module that is still running. */
export async function stopAllNodeProcesses(): Promise<void> {
  await Promise.all([...running].map((proc) => proc.stop()));
}
