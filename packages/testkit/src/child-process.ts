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
  const output = new LineLog(child);
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'));
  });
  const handle: NodeProcess = {
    pid: child.pid,
    lines: output.lines,
    stdout: output.stdout,
    stderr: output.stderr,
    exited,
    waitForLine: (pattern, timeoutMs = 30_000) => output.waitFor(pattern, timeoutMs, { script, exited }),
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

interface LineWaiter {
  pattern: RegExp;
  resolve: (line: string) => void;
}

/** A child's stdout and stderr by line, and the waiters for lines still to come. */
class LineLog {
  readonly lines: string[] = [];
  readonly stdout: string[] = [];
  readonly stderr: string[] = [];
  private readonly waiters = new Set<LineWaiter>();

  constructor(child: ChildProcess) {
    createInterface({ input: child.stdout! }).on('line', (line) => this.add(line, this.stdout));
    createInterface({ input: child.stderr! }).on('line', (line) => this.add(line, this.stderr));
  }

  /**
   * The first line (already seen or future) matching `pattern`; fails after `timeoutMs`, or at once when the
   * process exits first (it cannot print the line any more), with the output so far.
   */
  waitFor(
    pattern: RegExp,
    timeoutMs: number,
    { script, exited }: { script: string; exited: Promise<number | string> },
  ): Promise<string> {
    const seen = this.lines.find((line) => pattern.test(line));
    if (seen !== undefined) return Promise.resolve(seen);
    const { waiters, lines } = this;
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
      void exited.then((code) => {
        if (!waiters.has(waiter)) return;
        waiters.delete(waiter);
        clearTimeout(timer);
        reject(
          new Error(`${script} exited (${code}) before printing ${pattern}. Output:\n${lines.join('\n')}`),
        );
      });
    });
  }

  private add(line: string, stream: string[]): void {
    stream.push(line);
    this.lines.push(line);
    for (const waiter of this.waiters) {
      if (waiter.pattern.test(line)) {
        this.waiters.delete(waiter);
        waiter.resolve(line);
      }
    }
  }
}

/** Stops every process started by this module that is still running. */
export async function stopAllNodeProcesses(): Promise<void> {
  await Promise.all([...running].map((proc) => proc.stop()));
}
