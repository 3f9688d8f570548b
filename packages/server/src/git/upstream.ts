// The network side of the mirror: how git reaches the upstream (credentials, SSH, TLS, proxy), the inactivity
// timeout, and progress reporting. Every operation that reads the upstream goes through here, so each gets the
// same environment and the same deadline (upstream-deadline.ts), and no secret reaches argv, logs or errors.
// Which proxy git uses and whether refs may be listed without git is upstream-transport.ts's choice.
import { ConfbusError, type Logger, coreErrors } from '@confbus/core';
import { daemonAddress, readDaemonRefs, type DaemonAddress } from './git-daemon-refs.js';
import { GitCommandError } from './errors.js';
import type { SmartHttpRefs } from './git-http-refs.js';
import { basicAuthHeader, gitConfigEnv, type GitResult, type RunGitOptions } from './git-process.js';
import { ProgressTracker } from './git-progress.js';
import { parseLsRemote } from './refs.js';
import { isSshUri, needsSshCommand, SshCommand, type SshSettings } from './ssh.js';
import { redactUri, splitCredentials } from './uri.js';
import { localUpstreamPath, upstreamWorkTree } from './upstream-work-tree.js';
import { type ProxySettings, proxyFor, smartHttpFor } from './upstream-transport.js';

/** Named in timeout errors, so an operator knows what to raise (a named repository names its own). */
const TIMEOUT_SETTING = 'spring.cloud.config.server.git.timeout';

export interface UpstreamOptions {
  uri: string;
  username?: string;
  password?: string;
  ssh?: SshSettings;
  /** skip-ssl-validation: do not verify the https server's certificate (GIT_SSL_NO_VERIFY). */
  skipSslValidation?: boolean;
  /** proxy.http / proxy.https: the HTTP proxy for http:// / https:// uris. */
  proxy?: { http?: ProxySettings; https?: ProxySettings };
  timeoutSeconds: number;
  /** The setting a timeout error names (default TIMEOUT_SETTING). */
  timeoutSetting?: string;
  /** How often a running fetch logs its progress (ms). */
  progressLogIntervalMs: number;
  logger: Logger;
}

/** Runs git in the mirror (the mirror's runner: its cwd and its children registry). */
export type MirrorGit = (args: readonly string[], options: RunGitOptions) => Promise<GitResult>;

export class Upstream {
  /** The uri given to git: credentials split out. */
  readonly uri: string;
  /** For logs, errors and health. */
  readonly safeUri: string;
  /** Strings to mask in any message (passwords, passphrases). */
  readonly secrets: readonly string[];
  private readonly env: Record<string, string>;
  private readonly ssh: SshCommand | undefined;
  /** A repository on this machine: read by git only, never in this process (upstream-deadline.ts). */
  private readonly localPath: string | undefined;
  private readonly daemon: DaemonAddress | undefined;
  private readonly smartHttp: SmartHttpRefs | undefined;

  constructor(private readonly options: UpstreamOptions) {
    const split = splitCredentials(options.uri, options.username, options.password);
    // A uri git would read as an option: never passed to it.
    if (split.uri.startsWith('-'))
      throw new ConfbusError(coreErrors.CONFBUS_BAD_SETTING, 'Git uri must not start with "-"');
    this.uri = split.uri;
    this.safeUri = redactUri(options.uri);
    const proxy = proxyFor(this.uri, options.proxy);
    const auth = basicAuthHeader(split.username, split.password);
    this.env = {
      ...gitConfigEnv([
        ...(auth === undefined ? [] : [['http.extraHeader', auth] as const]),
        ...(proxy === undefined ? [] : [['http.proxy', proxy] as const]),
      ]),
      ...(options.skipSslValidation ? { GIT_SSL_NO_VERIFY: 'true' } : {}),
    };
    const proxyPassword = options.proxy?.https?.password ?? options.proxy?.http?.password;
    this.secrets = [split.password, options.ssh?.passphrase, proxyPassword].filter(
      (s): s is string => s !== undefined && s.length > 0,
    );
    this.ssh =
      options.ssh && isSshUri(this.uri) && needsSshCommand(options.ssh)
        ? new SshCommand(options.ssh, options.timeoutSeconds)
        : undefined;
    for (const warning of this.ssh?.warnings ?? []) options.logger.warn({ uri: this.safeUri }, warning);
    this.localPath = localUpstreamPath(this.uri);
    this.daemon = daemonAddress(this.uri);
    this.smartHttp = smartHttpFor(this.uri, {
      safeUri: this.safeUri,
      authorization: auth?.replace(/^Authorization: /, ''),
      skipSslValidation: options.skipSslValidation === true,
      viaProxy: proxy !== undefined,
    });
  }

  /**
   * The upstream's branches and tags (full ref name -> object id): what `git ls-remote --heads --tags --refs`
   * prints. The upstream check with refresh-rate 0, so as cheap as the transport allows: a git:// daemon's refs
   * are read over a socket and a smart-HTTP server's over a kept-alive connection from Node; otherwise, and
   * whenever those cannot answer faithfully, git is spawned (its error messages are the ones operators know).
   * A local repository's refs are listed by git too (4-6 ms a check): reading its files here could block for
   * good (upstream-deadline.ts).
   */
  async listRefs(git: MirrorGit, signal: AbortSignal): Promise<Map<string, string>> {
    const request = {
      idleTimeoutMs: this.options.timeoutSeconds * 1000,
      idleTimeoutHint: this.options.timeoutSetting ?? TIMEOUT_SETTING,
      signal,
    };
    if (this.daemon !== undefined || this.smartHttp !== undefined) {
      try {
        if (this.smartHttp !== undefined) return await this.smartHttp.read(request);
        if (this.daemon !== undefined)
          return await readDaemonRefs(this.daemon, { safeUri: this.safeUri, ...request });
      } catch (error) {
        // A timeout is the answer (git would wait as long); any other failure is worded by git below.
        if (!(error instanceof GitCommandError) || error.timedOut) throw error;
      }
    }
    const listing = await this.network(
      git,
      ['ls-remote', '--heads', '--tags', '--refs', '--end-of-options', this.uri],
      { what: `git ls-remote ${this.safeUri}` },
    );
    return parseLsRemote(listing.stdout.toString('utf8'));
  }

  /**
   * Fetches every branch and tag into the mirror, with `--progress`: its output keeps the inactivity timeout
   * from firing while data flows, and a long transfer logs how far it got (objects, bytes received, rate).
   */
  async fetchAll(
    git: MirrorGit,
    what: 'Cloning the configuration repository' | 'Fetching from the Git upstream',
  ): Promise<void> {
    const progress = new ProgressTracker();
    const started = performance.now();
    const ticker = setInterval(() => {
      const latest = progress.latest();
      this.options.logger.info(
        {
          uri: this.safeUri,
          seconds: Math.round((performance.now() - started) / 1000),
          ...(latest && {
            phase: latest.phase,
            percent: latest.percent,
            objects: latest.done,
            totalObjects: latest.total,
            received: latest.received,
            rate: latest.rate,
          }),
        },
        what,
      );
    }, this.options.progressLogIntervalMs);
    try {
      const refspecs = ['+refs/heads/*:refs/heads/*', '+refs/tags/*:refs/tags/*'];
      await this.network(
        git,
        [
          // No maintenance started by the fetch itself: UpstreamSync runs `git gc --auto` once the new state is
          // served, instead of a process more on the webhook's path (~4 ms). As settings, not flags: older git
          // ignores unknown keys but would reject unknown options.
          '-c',
          'maintenance.auto=false',
          '-c',
          'gc.auto=0',
          'fetch',
          '--progress',
          '--update-head-ok',
          '--no-write-fetch-head',
          '--end-of-options',
          this.uri,
          ...refspecs,
        ],
        { what: `git fetch ${this.safeUri}`, onStderr: (chunk) => progress.feed(chunk) },
      );
    } finally {
      clearInterval(ticker);
    }
  }

  /**
   * Where a local upstream's work tree can be (upstream-work-tree.ts): git's answer, none for any other upstream.
   * When git cannot tell in time (a hung mount), both places it could be, as configured, with the reason: the
   * server's own files are hidden there rather than served, and the start goes on.
   */
  async workTrees(git: MirrorGit): Promise<{ trees: string[]; error?: string }> {
    const path = this.localPath;
    if (path === undefined) return { trees: [] };
    try {
      const tree = await upstreamWorkTree(path, (args, env) =>
        this.network(git, args, { what: `git rev-parse ${this.safeUri}`, env }),
      );
      return { trees: tree === undefined ? [] : [tree] };
    } catch (error) {
      if (!(error instanceof GitCommandError && error.timedOut)) throw error;
      return { trees: [path, `${path}.git`], error: error.message };
    }
  }

  /**
   * Fetches one ref the server writes itself (git/state-ref.ts) into the mirror under the same name; its commit,
   * or undefined when the upstream has no such ref.
   */
  async fetchRef(git: MirrorGit, ref: string): Promise<string | undefined> {
    const listing = await this.network(git, ['ls-remote', '--end-of-options', this.uri, ref], {
      what: `git ls-remote ${this.safeUri} ${ref}`,
    });
    // `<id>\t<ref>` lines (parseLsRemote keeps branches and tags only).
    const line = listing.stdout
      .toString('utf8')
      .split('\n')
      .find((entry) => entry.endsWith(`\t${ref}`));
    const commit = line?.slice(0, line.indexOf('\t'));
    if (commit === undefined || commit === '') return undefined;
    await this.network(
      git,
      ['fetch', '--no-write-fetch-head', '--end-of-options', this.uri, `+${ref}:${ref}`],
      {
        what: `git fetch ${this.safeUri} ${ref}`,
      },
    );
    return commit;
  }

  /**
   * Pushes `commit` to `ref` only if the upstream's ref is still `expected` (absent when undefined): a writer
   * that lost a race is refused (GitCommandError) and must read again.
   */
  async pushRef(git: MirrorGit, ref: string, commit: string, expected: string | undefined): Promise<void> {
    await this.network(
      git,
      [
        'push',
        '--porcelain',
        `--force-with-lease=${ref}:${expected ?? ''}`,
        '--end-of-options',
        this.uri,
        `${commit}:${ref}`,
      ],
      { what: `git push ${this.safeUri} ${ref}` },
    );
  }

  /** Runs git against the upstream, under the upstream deadline. */
  private async network(git: MirrorGit, args: readonly string[], options: RunGitOptions): Promise<GitResult> {
    const env = { ...this.env, ...options.env };
    const base: RunGitOptions = {
      ...options,
      idleTimeoutMs: this.options.timeoutSeconds * 1000,
      idleTimeoutHint: this.options.timeoutSetting ?? TIMEOUT_SETTING,
      secrets: this.secrets,
      env,
    };
    if (!this.ssh) return git(args, base);
    return this.ssh.run((sshEnv) => git(args, { ...base, env: { ...env, ...sshEnv } }));
  }
}
