/**
 * A ref the server itself writes in the upstream repository, holding one JSON file: the rollouts' plan and
 * progress (rollouts/git-rollout-store.ts). The repository every replica already reads is the durable, shared
 * store: a write is a commit on the ref pushed with --force-with-lease, so two replicas writing at once cannot
 * overwrite each other (the second is refused and reads again), and the ref's history is the rollouts' history.
 * The commit is made in the mirror without a work tree: hash-object, a throwaway index, write-tree, commit-tree.
 */
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { StateRef } from '../environment/config-repository.js';
import type { MirrorGit } from './mirror-git.js';
import type { Upstream } from './upstream.js';

const FILE = 'state.json';
/** Who the ref's commits are by: the server, not a person. */
const IDENTITY = {
  GIT_AUTHOR_NAME: 'confbus',
  GIT_AUTHOR_EMAIL: 'confbus@localhost',
  GIT_COMMITTER_NAME: 'confbus',
  GIT_COMMITTER_EMAIL: 'confbus@localhost',
};

export class GitStateRef implements StateRef {
  constructor(
    private readonly git: MirrorGit,
    private readonly upstream: Upstream,
    readonly ref: string,
    /** Resolves once the mirror exists (its first clone may still be running): git needs a repository to work in. */
    private readonly made: () => Promise<void>,
  ) {}

  async read(): Promise<{ commit: string; content: Buffer } | undefined> {
    await this.made();
    const commit = await this.upstream.fetchRef(this.git.run, this.ref);
    if (commit === undefined) return undefined;
    const { stdout } = await this.git.run(['cat-file', 'blob', `${commit}:${FILE}`]);
    return { commit, content: stdout };
  }

  async write(content: Buffer, expected: string | undefined, message: string): Promise<string> {
    await this.made();
    const scratch = join(this.git.gitDir, `confbus-state-${randomBytes(6).toString('hex')}`);
    try {
      await writeFile(`${scratch}.json`, content);
      const blob = (await this.git.run(['hash-object', '-w', '--', `${scratch}.json`])).stdout
        .toString()
        .trim();
      const index = { GIT_INDEX_FILE: `${scratch}.index` };
      await this.git.run(['update-index', '--add', '--cacheinfo', `100644,${blob},${FILE}`], { env: index });
      const tree = (await this.git.run(['write-tree'], { env: index })).stdout.toString().trim();
      const parents = expected === undefined ? [] : ['-p', expected];
      const commit = (
        await this.git.run(['commit-tree', tree, ...parents, '-m', message], { env: IDENTITY })
      ).stdout
        .toString()
        .trim();
      await this.upstream.pushRef(this.git.run, this.ref, commit, expected);
      return commit;
    } finally {
      await rm(`${scratch}.json`, { force: true });
      await rm(`${scratch}.index`, { force: true });
    }
  }
}
