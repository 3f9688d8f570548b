// The mirror's public shapes: its options, the outcome of an upstream check, its health and its events.
import type { Logger } from '@confbus/core';
import type { SshSettings } from './ssh.js';
import type { ProxySettings } from './upstream-transport.js';
import type { RepositoryHealth } from '../environment/config-repository.js';

export interface GitMirrorOptions {
  /** Local path, file://, git://, https://, ssh:// - anything `git` speaks. */
  uri: string;
  /** Where the local bare mirror lives (created if missing). */
  basedir: string;
  /** Label used when a request names none. */
  defaultLabel: string;
  /** 'main' (requested or default) falls back to 'master' when there is no 'main' branch (default true). */
  tryMasterBranch?: boolean;
  /** Branches deleted upstream are deleted from the mirror; otherwise they keep being served (default false). */
  deleteUntrackedBranches?: boolean;
  /** 0 = check upstream for every request (coalesced); N = at most one check per N s; < 0 = never. */
  refreshRateSeconds: number;
  /**
   * Seconds a git network operation may go without any data from the upstream (progress included) before its
   * process group is killed. A transfer that keeps moving may take as long as it needs.
   */
  timeoutSeconds: number;
  /** The setting a timeout error names (default `spring.cloud.config.server.git.timeout`). */
  timeoutSetting?: string;
  /** How often a running fetch logs its progress (ms, default 4000, so at least every 5 s). */
  progressLogIntervalMs?: number;
  /**
   * Packs in the mirror before a fetch triggers a background `git gc --auto` (git's own default: 50). Each
   * fetch adds a pack; without maintenance a server that runs for months slows down on thousands of them.
   */
  gcAutoPackLimit?: number;
  /**
   * During an outage, upstream checks run in the background with this backoff (ms, doubling from `min` to
   * `max`; default 1000 and 30000) while requests are answered from the last fetched state at once.
   */
  outageRetryMs?: { min: number; max: number };
  /**
   * Least time between two upstream checks started for version hints the mirror cannot satisfy (ms, default
   * 1000): anyone can send a hint, so random ones must not keep the mirror checking (version-hint-checks.ts).
   */
  hintCheckIntervalMs?: number;
  /** HTTPS basic auth; never in argv, logs or errors. */
  username?: string;
  password?: string;
  /** SSH as Spring configures it (see ssh.ts); used for ssh:// and scp-like uris. */
  ssh?: SshSettings;
  /** Do not verify an https server's certificate. */
  skipSslValidation?: boolean;
  /** HTTP proxies for http:// and https:// uris. */
  proxy?: { http?: ProxySettings; https?: ProxySettings };
  /**
   * The server's own files (its settings file, its key store): when the upstream is a repository on this machine
   * whose work tree holds one, that path is served from no commit (../settings/server-own-files.ts).
   */
  ownFiles?: { readonly paths: readonly string[]; inside(realDirectory: string): readonly string[] };
  logger: Logger;
}

export interface FetchOutcome {
  /** The mirror's refs changed. */
  changed: boolean;
  /** Number of branches and tags in the mirror. */
  refs: number;
  /** The check failed; the mirror keeps its previous state. */
  stale: boolean;
  /** Redacted reason when stale. */
  error?: string;
}

/** A Git mirror's health: the repository port's (ConfigRepository.health). */
export type MirrorHealth = RepositoryHealth;

/** Events a GitMirror emits (listener argument types). */
export interface GitMirrorEvents {
  /** After every successful upstream check; `changed` says whether the mirror's refs moved. */
  fetched: [{ changed: boolean; refs: number }];
  /** The upstream became unreachable (once per outage). */
  stale: [{ uri: string; error: string }];
  /** The upstream is reachable again after an outage. */
  recovered: [{ uri: string; staleSince: Date }];
}
