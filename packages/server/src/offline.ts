// `@confbus/server/offline`: the server's environment building without the server (no HTTP, bus or console
// modules loaded), for commands that judge a repository before any server sees it (`confbus check`).
export type { RepositoryFiles, ResolvedRevision } from './environment/config-repository.js';
export {
  openOfflineEnvironments,
  type OfflineEnvironments,
  type OfflineEnvironmentsOptions,
} from './environment/offline-environments.js';
export { LocalGitRepository } from './git/local-git-repository.js';
export {
  configImpact,
  profilesInDocuments,
  type ConfigImpact,
  type EnvironmentImpact,
  type ImpactSource,
} from './impact/config-impact.js';
