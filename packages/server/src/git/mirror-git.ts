// Runs git inside the mirror's bare repository, keeping every child it starts so close() can kill them all.
import type { ChildProcess } from 'node:child_process';
import { killProcessGroup, runGit, type GitResult, type RunGitOptions } from './git-process.js';

export class MirrorGit {
  private readonly children = new Set<ChildProcess>();
  private closedFlag = false;
  private readonly closing = new AbortController();

  constructor(
    /** The bare repository (absolute). */
    readonly gitDir: string,
    /** Strings masked in every error message. */
    private readonly secrets: readonly string[],
    /** Variables every run gets on top of git's whitelist (a pre-receive hook's quarantine: local-git-repository.ts). */
    private readonly env: Record<string, string> = {},
  ) {}

  get closed(): boolean {
    return this.closedFlag;
  }

  /** Aborted by close(): for work that is not a child process (a connection to the upstream). */
  get signal(): AbortSignal {
    return this.closing.signal;
  }

  /** Bound, so it can be handed to the upstream and basedir helpers as their runner. */
  readonly run = (args: readonly string[], options: RunGitOptions = {}): Promise<GitResult> => {
    if (this.closedFlag) return Promise.reject(new Error('GitMirror is closed'));
    const env = { ...this.env, ...options.env };
    return runGit(args, {
      cwd: this.gitDir,
      secrets: this.secrets,
      children: this.children,
      ...options,
      env,
    });
  };

  /** Later runs are refused; running ones are killed with their process groups. */
  close(): void {
    this.closedFlag = true;
    this.closing.abort();
    for (const child of this.children) killProcessGroup(child);
  }
}
