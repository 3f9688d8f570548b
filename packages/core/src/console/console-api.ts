/**
 * The operator console's JSON API (docs/console.md, "The JSON API"): the one declaration of what its answers,
 * its action and its live events carry. The server's console routes are typed with these, and the console page
 * (a browser bundle) imports them as types only, so the two cannot drift apart. Types only: nothing here exists
 * at run time. Times are ISO 8601 strings, commits 40-hex ids, instance and service names bus ids.
 */

/**
 * A property value as a reader of the JSON gets it. The server holds values as core's PropertyValue and writes
 * them with writeJson, which prints a bigint or a JavaDouble as a JSON number: hence the `V` parameter of the
 * types that carry values (the server instantiates them with PropertyValue, a reader leaves the default).
 */
import type { RefreshOutcome } from '../bus-events/bus-event.js';
import type { ConsoleRolloutStatus } from './console-rollouts.js';

export type ConsoleValue = string | number | boolean;

/** One page of a list: `?offset&limit` (limit 1–500, the default per endpoint). */
export interface ConsolePaged<T> {
  items: T[];
  /** How many items there are in all (not only in this page). */
  total: number;
  offset: number;
  limit: number;
}

export interface ConsoleCommitSummary {
  commit: string;
  /** First parent first; empty for a root commit. */
  parents: string[];
  /** The author's name. */
  author: string;
  /** The author time. */
  time: string;
  /** The subject line. */
  message: string;
}

/** `GET /commits/{commit}`: one commit and the commit before it. */
export interface ConsoleCommitDetails extends ConsoleCommitSummary {
  /** The commit its push replaced, when the server saw that push; else its first parent; null for a root. */
  previousCommit: string | null;
}

/** A branch or tag of the default repository (`GET /labels`: branches, then tags, each sorted by name). */
export interface ConsoleLabel {
  name: string;
  kind: 'branch' | 'tag';
  /** The commit it names (a tag peeled to its commit). */
  commit: string;
}

/** A push the server noticed on its default label (the `push` live event carries one too). */
export interface ConsolePush {
  /** The default label's commit after the push. */
  commit: string;
  /** Its commit before the push. */
  previous: string;
  /** When the server noticed it. */
  at: string;
}

/** An instance's acknowledgement of a refresh event. */
export interface ConsoleAck {
  /** The acking instance's bus id. */
  service: string;
  /** Milliseconds from publication to the ack. */
  afterMs: number;
  /** The config version (commit) the instance reports it serves, when it says (confbus clients do). */
  configVersion?: string;
  /**
   * `applied`, or `rejected` when a confbus client kept its configuration (its own schema refused the new values,
   * or the refresh failed). Spring nodes' acks, and older confbus clients', count as `applied`.
   */
  outcome: RefreshOutcome;
  /** Why a `rejected` refresh was not applied (no values; bounded length). */
  reason?: string;
}

/** One step of a refresh event's timeline: one per ack kept, in arrival order. */
export interface ConsoleTimelinePoint {
  /** Milliseconds from publication to this ack. */
  afterMs: number;
  /** How many instances had acked by then. */
  acked: number;
  /** How many of those report the event's commit. */
  onCommit: number;
}

/** A refresh event this server published (`GET /refresh-events`, newest first). */
export interface ConsoleRefreshEvent {
  /** The bus event's id. */
  id: string;
  /** The bus destination it was sent to: `**`, `foo:**`, `foo:dev:**` or one instance's bus id. */
  destination: string;
  /** The commit it announced. */
  commit: string;
  /** The commit before the push, when the server saw the push; else the commit's first parent. */
  previousCommit: string | null;
  publishedAt: string;
  /** Acks recorded; the timeline may list fewer (the server keeps a bounded list). */
  ackCount: number;
  /** Acks that report the event's commit. */
  onCommit: number;
  /** Acks whose instance kept its configuration (`outcome: rejected`); their reasons are in `acks`. */
  rejected: number;
  /** Milliseconds to the last ack kept; null before the first. */
  slowestMs: number | null;
  timeline: ConsoleTimelinePoint[];
  /** What the diff link shows; null when the destination names no application of the repository. */
  diffTarget: { application: string; profiles: string } | null;
  /** Only in the single-event answer (`GET /refresh-events/{id}`), in arrival order. */
  acks?: ConsoleAck[];
  /**
   * Only in the single-event answer: the bus ids of fleet instances the destination addresses that have not acked
   * (never answered, or not yet), at most 100, sorted; `silentCount` counts them all.
   */
  silent?: string[];
  silentCount?: number;
}

/** One served repository in the overview. */
export interface ConsoleRepositoryState {
  /** `default`, a `repos.*` name, or `name[uri]` for a mirror made from a uri template. */
  name: string;
  /** Without credentials. */
  uri: string;
  /** The `repos.<name>.pattern` list; empty for the default repository. */
  patterns: string[];
  /** The default label as resolved; null when it was not (not cloned yet, or unreachable). */
  label: string | null;
  /** The default label's commit; null when unknown. */
  commit: ConsoleCommitSummary | null;
  lastCheckAt: string | null;
  lastSuccessAt: string | null;
  /** `UNKNOWN` until a first successful upstream check. */
  state: 'UP' | 'STALE' | 'UNKNOWN';
  staleSince: string | null;
  /** Why the repository could not be read now, else the last upstream failure; null when all is well. */
  error: string | null;
}

/** `GET /overview`. */
export interface ConsoleOverview {
  /** The default repository first, then the named ones in configuration order. */
  repositories: ConsoleRepositoryState[];
  /** `id`: the server's own bus id; null while the bus is off or starting. */
  bus: { enabled: boolean; connected: boolean; id: string | null };
  /** Applications of the default repository (null when its catalogue cannot be read), instances in the fleet. */
  counts: { applications: number | null; instances: number };
  /** The latest few, newest first. */
  refreshEvents: ConsoleRefreshEvent[];
  /** The latest few, newest first. */
  pushes: ConsolePush[];
}

/** An application of the default repository at a label. */
export interface ConsoleApplication {
  name: string;
  /** Sorted; `default` first when the application has plain files. */
  profiles: string[];
  /** Repository-relative paths of the application's own files: the first 50. */
  files: string[];
  /** How many files it has in all. */
  fileCount: number;
  /** `application*` files: shared by every application. */
  shared: boolean;
}

/** `GET /applications?label&filter`. */
export interface ConsoleApplications extends ConsolePaged<ConsoleApplication> {
  label: string;
  /** The label's commit. */
  commit: string;
}

/** `GET /applications/{application}/commits?label`: paged without a total, which would cost a walk of history. */
export interface ConsoleApplicationCommits {
  application: string;
  label: string;
  /** The label's commit. */
  commit: string;
  offset: number;
  limit: number;
  /** True when older commits follow. */
  more: boolean;
  /** The commits that touched the application's files, newest first. */
  items: ConsoleCommitSummary[];
}

/** Where a value comes from. */
export interface ConsolePropertyOrigin {
  /** Repository-relative file, or `overrides` for the server's overrides. */
  file: string;
  /** Spring's document number in a multi-document file (`#0` is the first), as in the property source name. */
  document?: number;
}

export interface ConsoleOverriddenValue<V = ConsoleValue> {
  value: V;
  origin: ConsolePropertyOrigin;
}

/** An effective property, as clients get it, masked. */
export interface ConsoleProperty<V = ConsoleValue> {
  key: string;
  value: V;
  origin: ConsolePropertyOrigin;
  /** Lower-precedence values of the same key, highest first. */
  overridden: ConsoleOverriddenValue<V>[];
}

/** `GET /environment?application&profiles&label&filter`: the effective properties, sorted by key. */
export interface ConsoleEnvironment<V = ConsoleValue> extends ConsolePaged<ConsoleProperty<V>> {
  application: string;
  profiles: string[];
  /** The repository that serves it (as the environment endpoint routes the request). */
  repository: string;
  label: string;
  commit: string;
  /** Served from the last fetched state because the upstream could not be reached. */
  stale: boolean;
}

/** Effective keys added, removed and changed from one environment to another, each sorted by key, masked. */
export interface ConsoleEnvironmentChanges<V = ConsoleValue> {
  added: Array<{ key: string; value: V }>;
  removed: Array<{ key: string; value: V }>;
  changed: Array<{ key: string; from: V; to: V }>;
}

/** `GET /diff?application&profiles&to&from`. */
export interface ConsoleDiff<V = ConsoleValue> extends ConsoleEnvironmentChanges<V> {
  application: string;
  profiles: string[];
  /** The repository that serves `to`; both sides are read in it. */
  repository: string;
  /** Null when `to` has no earlier commit (everything is added). */
  from: { label: string; commit: string } | null;
  to: { label: string; commit: string };
}

/** `GET /session`. */
export interface ConsoleSession {
  authEnabled: boolean;
  /** Who the console acts as, with credentials on. */
  user?: string;
  /** That user's roles (viewer, operator, admin): the page offers actions to operators only. */
  roles?: string[];
  /** Every action must carry it in the `csrfHeader` header. */
  csrfToken: string;
  csrfHeader: string;
  busEnabled: boolean;
}

/** `POST /bus-refresh`'s body: `application` for the targets `application` and `profile`, and so on. */
export interface ConsoleRefreshRequest {
  target: 'all' | 'application' | 'profile' | 'instance';
  application?: string;
  profile?: string;
  /** A bus id, such as `foo:dev:8080:3f2a`. */
  instance?: string;
}

/** `POST /bus-refresh`'s 202 answer: the event published. */
export interface ConsoleRefreshPublished {
  id: string;
  destination: string;
  /** The commit the event announces. */
  commit: string;
  publishedAt: string;
}

/** `GET /events`: each server-sent event's data, by event name. */
export interface ConsoleEvents {
  /** The default label moved (upstream check or webhook). */
  push: ConsolePush;
  /** The upstream became unreachable, or reachable again. */
  repository: { stale: boolean };
  /** A refresh was published: by a webhook (no commit) or the console. */
  refresh: { id: string; destination: string; commit?: string };
  /** An instance acknowledged an event. */
  ack: { ackId: string; service: string; configVersion: string | null };
  /** A confbus instance announced itself or left. */
  presence: { service: string; leaving: boolean };
  /** A staged rollout moved its applications' instances (started, a wave, promoted, aborted, rolled back). */
  rollout: { applications: string[]; commit: string };
  /** An operator paused (status `paused`) or resumed (`running`) a staged rollout: no instance moved. */
  'rollout-status': { id: string; applications: string[]; status: ConsoleRolloutStatus };
}

export type ConsoleEventType = keyof ConsoleEvents;
