// Runs the git CLI safely: no shell, a whitelisted environment (so a stray GIT_DIR, a user's global
// config or a credential helper cannot change behaviour), no prompts, a hard timeout that kills the
// whole process group (git spawns helpers such as git-remote-https and ssh), and redacted errors.
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, resolve as resolvePath } from 'node:path';
import { GitCommandError } from './errors.js';
import { summarizeGitStderr } from './git-stderr.js';
import { IdleDeadline } from './upstream-deadline.js';
import { redactText } from './uri.js';

// Variables git legitimately needs from the surrounding environment (paths, proxies, ssh agent).
const INHERITED_ENV = [
  'PATH',
  'HOME',
  'TMPDIR',
  'SSH_AUTH_SOCK',
  'GIT_SSL_CAINFO',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'http_proxy',
  'https_proxy',
  'no_proxy',
];

/**
 * The environment every git process gets, plus `extra` (e.g. GIT_CONFIG_* for credentials). With `cwd` (the
 * repository it runs in), git may not look for a repository above it: a mirror's basedir stays empty until its
 * first use (basedir.ts), and git run there must fail rather than find an enclosing repository.
 */
export function gitEnv(extra: Record<string, string> = {}, cwd?: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const name of INHERITED_ENV) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return {
    ...env,
    LANG: 'C',
    LC_ALL: 'C',
    GIT_TERMINAL_PROMPT: '0',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    // ssh must fail rather than ask for a passphrase or host-key confirmation.
    GIT_SSH_COMMAND: process.env.GIT_SSH_COMMAND ?? 'ssh -o BatchMode=yes',
    ...(cwd === undefined ? {} : { GIT_CEILING_DIRECTORIES: dirname(resolvePath(cwd)) }),
    ...extra,
  };
}

/** Environment that makes git send HTTP basic auth without the secret appearing in argv or the uri. */
export function basicAuthEnv(
  username: string | undefined,
  password: string | undefined,
): Record<string, string> {
  const header = basicAuthHeader(username, password);
  return header === undefined ? {} : gitConfigEnv([['http.extraHeader', header]]);
}

/** The `Authorization` header line for HTTP basic auth, or undefined without credentials. */
export function basicAuthHeader(
  username: string | undefined,
  password: string | undefined,
): string | undefined {
  if (username === undefined && password === undefined) return undefined;
  return `Authorization: Basic ${Buffer.from(`${username ?? ''}:${password ?? ''}`).toString('base64')}`;
}

/** git configuration through the environment (GIT_CONFIG_COUNT/KEY_n/VALUE_n): never in argv. */
export function gitConfigEnv(entries: ReadonlyArray<readonly [string, string]>): Record<string, string> {
  if (entries.length === 0) return {};
  const env: Record<string, string> = { GIT_CONFIG_COUNT: String(entries.length) };
  entries.forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = key;
    env[`GIT_CONFIG_VALUE_${i}`] = value;
  });
  return env;
}

export interface RunGitOptions {
  cwd?: string;
  /** Kill the process group after this many ms in all; 0 or undefined = no limit (local commands). */
  timeoutMs?: number;
  /**
   * Kill the process group after this many ms without any output (network commands: a transfer that keeps
   * making progress may take as long as it needs, a silent one is cut). 0 or undefined = no limit.
   */
  idleTimeoutMs?: number;
  /** Appended to the message of an idle timeout, e.g. the setting that controls it. */
  idleTimeoutHint?: string;
  /** Called with each chunk of stderr as it arrives (e.g. to follow `--progress`). */
  onStderr?: (chunk: string) => void;
  env?: Record<string, string>;
  /** Strings to mask in error messages (passwords). */
  secrets?: readonly string[];
  /** Short description for errors, e.g. "ls-remote https://host/repo". Must already be redacted. */
  what?: string;
  /** Registry of live children, so an owner can kill them on close(). */
  children?: Set<ChildProcess>;
}

export interface GitResult {
  stdout: Buffer;
  stderr: string;
}

/**
 * git's argv to run `args` in `cwd`: git enters the directory itself (`-C`) instead of spawn's `cwd`, which libuv
 * applies in the forked child while the server's thread waits for the exec, so a directory on a hung mount would
 * freeze the event loop; in git it costs a process killed at its deadline.
 */
export function inRepository(cwd: string | undefined, args: readonly string[]): string[] {
  return cwd === undefined ? [...args] : ['-C', cwd, ...args];
}

/** Kills a detached child's whole process group (falls back to the child alone). */
export function killProcessGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}

// stderr kept for the error message: its end holds git's reason; a long clone's progress must not fill memory.
const MAX_STDERR_BYTES = 64 * 1024;

export function runGit(args: readonly string[], options: RunGitOptions = {}): Promise<GitResult> {
  const what = options.what ?? `git ${args[0] ?? ''}`;
  return new Promise((resolve, reject) => {
    const child = spawn('git', inRepository(options.cwd, args), {
      env: gitEnv(options.env, options.cwd),
      shell: false,
      stdio: ['ignore', 'pipe', 'pipe'],
      // Own process group, so a timeout can kill git's helpers (remote-https, ssh, upload-pack) too.
      detached: true,
    });
    options.children?.add(child);
    const out: Buffer[] = [];
    let err = '';
    const watchdog = new Watchdog(options, () => killProcessGroup(child));
    child.stdout.on('data', (c: Buffer) => {
      watchdog.activity();
      out.push(c);
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (c: string) => {
      watchdog.activity();
      options.onStderr?.(c);
      err = (err + c).slice(-MAX_STDERR_BYTES);
    });
    child.on('error', (e) => {
      watchdog.stop();
      options.children?.delete(child);
      reject(new GitCommandError(`${what} could not be started: ${e.message}`, null, false));
    });
    child.on('close', (code, signal) => {
      watchdog.stop();
      options.children?.delete(child);
      const stderr = redactText(err, options.secrets);
      if (code === 0) {
        resolve({ stdout: Buffer.concat(out), stderr });
        return;
      }
      const reason =
        watchdog.reason ?? (signal ? `was killed by ${signal}` : `failed with exit code ${code}`);
      const detail = summarizeGitStderr(stderr);
      const message = `${what} ${reason}${detail ? `: ${detail}` : ''}`;
      reject(new GitCommandError(message, code, watchdog.reason !== undefined));
    });
  });
}

/** The two timeouts of a git process: one for its whole run, and the upstream deadline (upstream-deadline.ts). */
class Watchdog {
  /** Why the process was killed, once it was. */
  reason: string | undefined;
  private readonly total: NodeJS.Timeout | undefined;
  private readonly idle: IdleDeadline;

  constructor(
    options: RunGitOptions,
    private readonly kill: () => void,
  ) {
    const { timeoutMs } = options;
    if (timeoutMs && timeoutMs > 0)
      this.total = setTimeout(() => this.fire(`timed out after ${timeoutMs / 1000} s`), timeoutMs);
    this.idle = new IdleDeadline(options, (reason) => this.fire(reason));
  }

  activity(): void {
    this.idle.activity();
  }

  stop(): void {
    clearTimeout(this.total);
    this.idle.stop();
  }

  private fire(reason: string): void {
    if (this.reason !== undefined) return;
    this.reason = reason;
    this.stop();
    this.kill();
  }
}
