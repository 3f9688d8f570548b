// Label -> commit in the mirror's fetched state: a branch, a tag, or a (possibly abbreviated) commit id, with
// Spring's try-master-branch fallback. Branches and tags come from memory; commit ids are peeled once through
// the cat-file reader and remembered (commits never change).
import { LruCache } from '../support/lru-cache.js';
import type { ResolvedRevision } from '../environment/config-repository.js';
import type { CatFileBatch } from './cat-file-batch.js';
import { LabelNotFoundError } from './errors.js';
import type { LocalRefs } from './local-refs.js';

const ABBREVIATED_COMMIT = /^[0-9a-fA-F]{7,40}$/;
const COMMIT_CACHE_SIZE = 1024;

export class LabelResolver {
  private readonly commits = new LruCache<string, string>(COMMIT_CACHE_SIZE);

  constructor(
    private readonly refs: LocalRefs,
    private readonly reader: CatFileBatch,
    /** 'main' falls back to 'master' when there is no 'main' branch. */
    private readonly tryMasterBranch: boolean,
  ) {}

  /** The branch or tag whose head serves `requested`: 'master' for a missing 'main' under try-master-branch. */
  headLabel(requested: string): string {
    const refs = this.refs.snapshot;
    if (
      requested === 'main' &&
      this.tryMasterBranch &&
      refs !== undefined &&
      !refs.branches.has('main') &&
      !refs.tags.has('main') &&
      refs.branches.has('master')
    )
      return 'master';
    return requested;
  }

  /** `commit` is the head of branch or tag `label`. */
  isHead(label: string, commit: string): boolean {
    const refs = this.refs.snapshot;
    return refs?.branches.get(label) === commit || refs?.tags.get(label) === commit;
  }

  /** The head commit of branch or tag `label`, if there is one. */
  headOf(label: string): string | undefined {
    const refs = this.refs.snapshot;
    return refs?.branches.get(label) ?? refs?.tags.get(label);
  }

  /** Throws LabelNotFoundError when nothing in the mirror answers to `requested`. */
  async revisionOf(requested: string, stale: boolean): Promise<ResolvedRevision> {
    const commit = await this.lookup(requested);
    if (commit !== undefined) return { label: requested, commit, stale };
    // try-master-branch (as Spring): a missing 'main' falls back to 'master', requested or by default.
    if (requested === 'main' && this.tryMasterBranch) {
      const master = this.refs.snapshot?.branches.get('master');
      if (master !== undefined) return { label: 'master', commit: master, stale };
    }
    throw new LabelNotFoundError(requested);
  }

  private async lookup(label: string): Promise<string | undefined> {
    const ref = this.headOf(label);
    if (ref !== undefined) return ref;
    if (!ABBREVIATED_COMMIT.test(label)) return undefined;
    const key = label.toLowerCase();
    const known = this.commits.get(key);
    if (known !== undefined) return known;
    // Peel to a commit: a tree or blob id is not a usable label. Ambiguous abbreviations answer "missing".
    const object = await this.reader.read(`${key}^{commit}`, 0); // its id and type: no content
    if (object?.type !== 'commit') return undefined;
    this.commits.set(key, object.oid);
    return object.oid;
  }
}
