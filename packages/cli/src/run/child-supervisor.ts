/**
 * The one child `confbus run` keeps: started with an environment, sent signals, restarted gracefully (SIGTERM,
 * the grace period, then SIGKILL; the new child starts once the old one is gone, so a port is free again), and
 * its exit turned into confbus's own status as a shell reports it (a death by signal n is 128 + n).
 *
 * The child runs in a process group of its own (as dumb-init does): a terminal's Ctrl-C reaches confbus only,
 * which passes it on once instead of the child getting it twice, and signals go to the whole group, so a shell
 * wrapper's children (`sh -c "python app.py"`) hear them too.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { constants } from 'node:os';
import type { Logger } from '@confbus/core';

export interface ExitStatus {
  /** What confbus exits with: the child's code, 128 + n for a death by signal n, 127/126 when it did not start. */
  readonly code: number;
  /** How to say it in a log line (`exit code 3`, `signal SIGTERM`). */
  readonly description: string;
}

export interface ChildCommand {
  readonly command: string;
  readonly args: readonly string[];
}

interface RunningChild {
  readonly process: ChildProcess;
  readonly exit: Promise<ExitStatus>;
  exited: boolean;
}

export class ChildSupervisor {
  #child: RunningChild | undefined;
  /** Set while the child is replaced: its exit is then expected, not the end. */
  #replacing = false;
  #stopping = false;
  #resolveDone!: (status: ExitStatus) => void;
  /** The child's exit that ends the run: one not caused by a restart. */
  readonly done: Promise<ExitStatus> = new Promise((resolve) => (this.#resolveDone = resolve));

  constructor(
    private readonly command: ChildCommand,
    private readonly graceMs: number,
    private readonly logger: Logger,
  ) {}

  get pid(): number | undefined {
    return this.#child?.process.pid;
  }

  start(env: Readonly<Record<string, string>>): void {
    const { command, args } = this.command;
    const child = spawn(command, args, { env, stdio: 'inherit', detached: true });
    const exit = new Promise<ExitStatus>((resolve) => {
      child.once('error', (error: NodeJS.ErrnoException) => resolve(spawnFailure(command, error)));
      child.once('exit', (code, signal) => resolve(exitStatusOf(code, signal)));
    });
    const running: RunningChild = { process: child, exit, exited: false };
    this.#child = running;
    void exit.then((status) => {
      running.exited = true;
      if (this.#child === running && !this.#replacing) this.#resolveDone(status);
    });
  }

  /**
   * Passes a signal confbus received on to the child. SIGTERM, SIGINT and SIGQUIT also end the run, within the
   * grace period: a child still running then gets SIGKILL, so confbus never leaves it behind when its own
   * supervisor kills confbus next.
   */
  forward(signal: NodeJS.Signals): void {
    if ((signal === 'SIGTERM' || signal === 'SIGINT' || signal === 'SIGQUIT') && !this.#stopping) {
      this.#stopping = true;
      setTimeout(() => {
        this.logger.warn(
          { childPid: this.pid },
          `Child still running ${this.graceMs} ms after ${signal}: SIGKILL`,
        );
        this.signal('SIGKILL');
      }, this.graceMs).unref();
    }
    this.signal(signal);
  }

  /** Sends `signal` to the child's process group. */
  signal(signal: NodeJS.Signals): void {
    const pid = this.#child?.process.pid;
    if (pid === undefined) return;
    try {
      process.kill(-pid, signal);
    } catch {
      // The group is gone (or was never made): try the child alone; if that is gone too, its exit is on the way.
      try {
        process.kill(pid, signal);
      } catch {
        // Exited.
      }
    }
  }

  /**
   * Stops the child gracefully and starts a new one with `env`; does nothing once the run is stopping. Should
   * confbus be told to stop meanwhile, no new child starts and the old one's exit ends the run.
   */
  async restart(env: Readonly<Record<string, string>>): Promise<void> {
    const old = this.#child;
    if (this.#stopping || old === undefined || old.exited) return;
    this.#replacing = true;
    try {
      const status = await this.#terminate(old);
      this.logger.info(
        { childPid: old.process.pid },
        `Child stopped for the restart (${status.description})`,
      );
      if (this.#stopping) {
        this.#resolveDone(status);
        return;
      }
      this.start(env);
      this.logger.info({ childPid: this.pid }, 'Child restarted with the new configuration');
    } finally {
      this.#replacing = false;
    }
  }

  /** SIGTERM to the group, SIGKILL after the grace period; resolves with the child's exit. */
  async #terminate(child: RunningChild): Promise<ExitStatus> {
    this.signal('SIGTERM');
    const timer = setTimeout(() => {
      this.logger.warn(
        { childPid: child.process.pid },
        `Child still running ${this.graceMs} ms after SIGTERM: sending SIGKILL`,
      );
      this.signal('SIGKILL');
    }, this.graceMs);
    try {
      return await child.exit;
    } finally {
      clearTimeout(timer);
    }
  }
}

/** As a shell reports it: the code, or 128 + the signal's number. */
export function exitStatusOf(code: number | null, signal: NodeJS.Signals | null): ExitStatus {
  if (signal !== null) {
    const number = constants.signals[signal] ?? 0;
    return { code: 128 + number, description: `signal ${signal}` };
  }
  return { code: code ?? 1, description: `exit code ${code ?? 'unknown'}` };
}

/** A command that could not be started: 127 when it is not found, 126 when it cannot be run (as sh does). */
function spawnFailure(command: string, error: NodeJS.ErrnoException): ExitStatus {
  if (error.code === 'ENOENT') return { code: 127, description: `command not found: ${command}` };
  if (error.code === 'EACCES') return { code: 126, description: `permission denied: ${command}` };
  return { code: 126, description: `could not start ${command}: ${error.message}` };
}
