/**
 * A Git mirror as the server's one repository port (ConfigRepository): what it serves, its health and start, and
 * both capabilities: `refresh` (re-read on a webhook, watched by the console) and `history` (the console's lists
 * of labels and commits, read from the mirror's bare repository).
 */
import type { ConfigRepository, RepositoryRefresh } from '../environment/config-repository.js';
import { GitHistory } from './git-history.js';
import type { GitMirror } from './git-mirror.js';

export function gitRepository(mirror: GitMirror): ConfigRepository {
  const refresh: RepositoryRefresh = {
    refreshNow: () => mirror.refreshNow(),
    resolveFetched: (label) => mirror.resolveFetched(label),
    onChecked(listener) {
      mirror
        .on('fetched', ({ changed }) => listener(changed))
        .on('stale', () => listener(false))
        .on('recovered', () => listener(false));
    },
  };
  const history = new GitHistory(mirror.gitDir);
  return {
    resolve: (label, atLeast) => mirror.resolve(label, atLeast),
    resolveNow: (label, atLeast) => mirror.resolveNow(label, atLeast),
    listFiles: (commit) => mirror.listFiles(commit),
    readFile: (...args: Parameters<GitMirror['readFile']>) => mirror.readFile(...args),
    blobIds: (commit) => mirror.blobIds(commit),
    health: () => mirror.health(),
    open: () => mirror.open(),
    start: () => mirror.start(),
    refresh,
    firstParent: async (commit) => (await history.commit(commit)).parents[0],
    history,
    stateRef: (ref) => mirror.stateRef(ref),
  };
}
