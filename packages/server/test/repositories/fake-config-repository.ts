import { createHash } from 'node:crypto';
import type {
  ConfigRepository,
  RepositoryRefresh,
  ResolvedRevision,
} from '../../src/environment/config-repository.js';
import { LabelNotFoundError, type MirrorHealth } from '../../src/git/index.js';

/**
 * An in-memory repository in place of the Git mirror: labels point at commits, a commit is a map of files.
 * `push()` changes upstream; like the mirror, what is served moves only on `resolve()` (a checked label) or
 * `refreshNow()`. `upstreamDown` makes those serve the last fetched state as stale.
 */
export class FakeConfigRepository implements ConfigRepository, RepositoryRefresh {
  /** It refreshes (POST /monitor re-reads it); it has no history, so the console is off on it. */
  readonly refresh: RepositoryRefresh = this;
  upstreamDown = false;
  /** Calls, for tests that count upstream work. */
  readonly calls = { resolve: 0, refreshNow: 0, listFiles: 0, readFile: 0 };
  readonly #commits = new Map<string, ReadonlyMap<string, string>>();
  readonly #upstream = new Map<string, string>();
  readonly #fetched = new Map<string, string>();
  /** Each commit's parent: the label's commit before it was pushed. */
  readonly #parents = new Map<string, string>();

  constructor(
    files: Record<string, string> = {},
    private readonly defaultLabel = 'main',
  ) {
    this.push(files);
    this.#fetchAll();
  }

  /** A new commit on `label` upstream (the files given replace the label's files); returns its id. */
  push(files: Record<string, string>, label = this.defaultLabel): string {
    const content = new Map(Object.entries(files));
    const commit = createHash('sha1')
      .update(`${this.#commits.size}:${JSON.stringify([...content])}`)
      .digest('hex');
    this.#commits.set(commit, content);
    const parent = this.#upstream.get(label);
    if (parent !== undefined) this.#parents.set(commit, parent);
    this.#upstream.set(label, commit);
    return commit;
  }

  async resolve(label: string | null): Promise<ResolvedRevision> {
    this.calls.resolve++;
    if (!this.upstreamDown) this.#fetchAll();
    return this.#served(label);
  }

  async resolveFetched(label: string | null): Promise<ResolvedRevision> {
    return this.#served(label);
  }

  async refreshNow(): Promise<{ stale: boolean }> {
    this.calls.refreshNow++;
    if (!this.upstreamDown) this.#fetchAll();
    return { stale: this.upstreamDown };
  }

  /** Upstream checks are not announced: nothing in the fast tier follows them. */
  onChecked(): void {}

  async listFiles(commit: string): Promise<readonly string[]> {
    this.calls.listFiles++;
    return [...this.#commit(commit).keys()];
  }

  async firstParent(commit: string): Promise<string | undefined> {
    this.#commit(commit);
    return this.#parents.get(commit);
  }

  async readFile(commit: string, path: string): Promise<Buffer | undefined> {
    this.calls.readFile++;
    const text = this.#commit(commit).get(path);
    return text === undefined ? undefined : Buffer.from(text);
  }

  /** Content ids, as git's blob ids: a file unchanged between commits keeps its id. */
  async blobIds(commit: string): Promise<ReadonlyMap<string, string>> {
    const ids = new Map<string, string>();
    for (const [path, text] of this.#commit(commit)) {
      ids.set(path, createHash('sha1').update(text).digest('hex'));
    }
    return ids;
  }

  /** As the mirror reports it to /actuator/health and the metrics. */
  health(): MirrorHealth {
    return {
      uri: 'fake://config',
      available: true,
      stale: this.upstreamDown,
      checks: this.calls.resolve + this.calls.refreshNow,
      fetches: 0,
    };
  }

  /** Nothing to clone: the fake is fetched from the start. */
  async start(): Promise<void> {}

  #fetchAll(): void {
    for (const [label, commit] of this.#upstream) this.#fetched.set(label, commit);
  }

  #served(label: string | null): ResolvedRevision {
    let name = label ?? this.defaultLabel;
    // As the mirror's try-master-branch (Spring's): a missing 'main' falls back to 'master'.
    if (name === 'main' && !this.#fetched.has(name) && this.#fetched.has('master')) name = 'master';
    const commit = this.#fetched.get(name);
    if (commit === undefined) throw new LabelNotFoundError(name);
    return { label: name, commit, stale: this.upstreamDown };
  }

  #commit(commit: string): ReadonlyMap<string, string> {
    const files = this.#commits.get(commit);
    if (!files) throw new Error(`No such commit: ${commit}`);
    return files;
  }
}
