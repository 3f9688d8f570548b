/** The JSON shapes of the console API (docs/console.md). */
export type Value = string | number | boolean;

export interface Paged<T> {
  items: T[];
  total: number;
  offset: number;
  limit: number;
}

export interface CommitSummary {
  commit: string;
  parents: string[];
  author: string;
  time: string;
  message: string;
}

export interface TimelinePoint {
  afterMs: number;
  acked: number;
  onCommit: number;
}

export interface Ack {
  service: string;
  afterMs: number;
  configVersion?: string;
}

export interface RefreshEvent {
  id: string;
  destination: string;
  commit: string;
  previousCommit: string | null;
  publishedAt: string;
  ackCount: number;
  onCommit: number;
  slowestMs: number | null;
  timeline: TimelinePoint[];
  diffTarget: { application: string; profiles: string } | null;
  acks?: Ack[];
}

export interface Push {
  commit: string;
  previous: string;
  at: string;
}

export interface RepositoryState {
  /** `default`, a `repos.*` name, or `name[uri]` for a mirror made from a uri template. */
  name: string;
  uri: string;
  /** The `repos.<name>.pattern` list; empty for the default repository. */
  patterns: string[];
  label: string | null;
  commit: CommitSummary | null;
  lastCheckAt: string | null;
  lastSuccessAt: string | null;
  state: 'UP' | 'STALE' | 'UNKNOWN';
  staleSince: string | null;
  error: string | null;
}

export interface Overview {
  /** The default repository first, then the named ones in configuration order. */
  repositories: RepositoryState[];
  bus: { enabled: boolean; connected: boolean; id: string | null };
  counts: { applications: number | null; instances: number };
  refreshEvents: RefreshEvent[];
  pushes: Push[];
}

export interface Label {
  name: string;
  kind: 'branch' | 'tag';
  commit: string;
}

export interface Application {
  name: string;
  profiles: string[];
  files: string[];
  fileCount: number;
  shared: boolean;
}

export interface Applications extends Paged<Application> {
  label: string;
  commit: string;
}

export interface ApplicationCommits {
  application: string;
  label: string;
  commit: string;
  offset: number;
  limit: number;
  more: boolean;
  items: CommitSummary[];
}

export interface Origin {
  file: string;
  document?: number;
}

export interface Property {
  key: string;
  value: Value;
  origin: Origin;
  overridden: Array<{ value: Value; origin: Origin }>;
}

export interface EnvironmentView extends Paged<Property> {
  application: string;
  profiles: string[];
  /** The repository that serves it (as the environment endpoint routes the request). */
  repository: string;
  label: string;
  commit: string;
  stale: boolean;
}

export interface Diff {
  application: string;
  profiles: string[];
  repository: string;
  from: { label: string; commit: string } | null;
  to: { label: string; commit: string };
  added: Array<{ key: string; value: Value }>;
  removed: Array<{ key: string; value: Value }>;
  changed: Array<{ key: string; from: Value; to: Value }>;
}

export type SyncState = 'current' | 'same-config' | 'lagging' | 'unknown';

export interface Instance {
  id: string;
  kind: 'confbus' | 'spring';
  application: string;
  profiles: string[];
  label: string | null;
  configVersion: string | null;
  startedAt: string | null;
  lastSeenAt: string;
  state: SyncState;
  latest: string | null;
}

export interface Fleet extends Paged<Instance> {
  counts: Record<SyncState, number>;
}

export interface Session {
  authEnabled: boolean;
  csrfToken: string;
  csrfHeader: string;
  busEnabled: boolean;
}
