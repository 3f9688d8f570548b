/**
 * Where the default repository comes from: a Git uri, the native profile's folders, or, only when asked for,
 * the embedded sample. None configured stops the start, as Spring's "You need to configure a uri for the git
 * repository." does: serving the sample instead would give every client 200 with sample values after one typo.
 */
import { SettingsError, type Settings } from '@confbus/core';
import { SAMPLE_REPOSITORY } from './source-settings.js';

const GIT_URI = 'spring.cloud.config.server.git.uri';
const PROFILES = 'spring.profiles.active';

export type RepositorySource =
  | { kind: 'git'; uri: string }
  | { kind: 'native' }
  | { kind: 'sample' }
  | { kind: 'database'; profile: string };

/** The profiles that serve from a database (repositories/backend-settings.ts reads their settings). */
const DATABASE_PROFILES = ['jdbc', 'redis', 'composite'];

export function repositorySourceOf(settings: Settings): RepositorySource {
  const uri = settings.optionalString(GIT_URI);
  const native = settings.list(PROFILES).includes('native');
  const database = settings.list(PROFILES).find((profile) => DATABASE_PROFILES.includes(profile));
  if (settings.boolean(SAMPLE_REPOSITORY)) {
    const other =
      uri !== undefined
        ? GIT_URI
        : native
          ? `${PROFILES}=native`
          : database
            ? `${PROFILES}=${database}`
            : undefined;
    if (other !== undefined)
      throw new SettingsError(
        `${SAMPLE_REPOSITORY}=true serves the embedded sample repository, and ${other} names another source: ` +
          'set one of them',
        SAMPLE_REPOSITORY,
        settings.sourceOf(SAMPLE_REPOSITORY) ?? 'default',
      );
    return { kind: 'sample' };
  }
  // As in Spring, a database profile replaces the Git repository (made only when no other backend is).
  if (database !== undefined) return { kind: 'database', profile: database };
  if (uri !== undefined) return { kind: 'git', uri };
  if (native) return { kind: 'native' };
  throw new SettingsError(missingSourceMessage(settings), GIT_URI, 'default');
}

/** Names the settings that would do, and repeats what was nearly one of them (a mistyped variable's warning). */
function missingSourceMessage(settings: Settings): string {
  const near = settings.warnings.filter((warning) => warning.includes(GIT_URI));
  return (
    `No configuration repository: set ${GIT_URI} (environment variable SPRING_CLOUD_CONFIG_SERVER_GIT_URI) ` +
    `to the Git repository to serve, or ${PROFILES}=native to serve folders ` +
    `(spring.cloud.config.server.native.search-locations); ${SAMPLE_REPOSITORY}=true serves an embedded ` +
    'sample repository to try confbus out.' +
    near.map((warning) => ` ${warning}`).join('')
  );
}
