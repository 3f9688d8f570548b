// Public surface of the server's Git layer.
export { GitMirror } from './git-mirror.js';
export { gitRepository } from './git-repository.js';
export type { FetchOutcome, GitMirrorOptions, MirrorHealth, ResolvedRevision } from './git-mirror.js';
export {
  GitCommandError,
  InvalidLabelError,
  LabelNotFoundError,
  RepositoryUnavailableError,
} from './errors.js';
export { requireValidLabel, validateLabel } from './label.js';
export { localGitUri, redactUri } from './uri.js';
export type { ProxySettings } from './upstream-transport.js';
export type { SshSettings } from './ssh.js';
export { GitHistory, MAX_LOG_PATHS } from './git-history.js';
export type { CommitPage, LogQuery } from './git-history.js';
