/**
 * The real stores behind the repositories, from the settings: a GitMirror per repository (under basedir or the
 * mirrors home, mirrors-home.ts), the native backend's folders, a database, or a composite's members, each
 * opened by its backend. The `OpenMirror` port is what open-repositories.ts puts environment services in front of;
 * a test passes its own fake instead, so nothing here is needed to serve from one.
 */
import { defaultMirrorsHome } from './mirrors-home.js';
import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { type Logger, maskUriUserInfo } from '@confbus/core';
import type { ConfigRepository } from '../environment/config-repository.js';
import { GitMirror, gitRepository, localGitUri } from '../git/index.js';
import type { NativeSettings } from '../native/native-settings.js';
import type { DatabaseBackendSettings } from './backend-settings.js';
import { openDatabase } from './open-database.js';
import { orderMembers } from '../composite/composite-repository.js';
import type { CompositeMemberSettings, CompositeSettings } from './composite-settings.js';
import type { RepositoryDefinition, RepositorySettings } from './repository-settings.js';
import { NativeRepository } from '../native/native-repository.js';
import { ServerOwnFiles } from '../settings/server-own-files.js';

/** One repository's store, opened: what the environment service reads through. */
export interface OpenedMirror {
  readonly mirror: ConfigRepository;
  /** The property sources' name prefix (default: the uri, credentials masked). */
  readonly displayUri?: string;
  /** The folders searched (default: the definition's search-paths). */
  readonly searchPaths?: readonly string[];
  /** `removeFiles`: a placeholder-made mirror evicted from its pool removes its directory too. */
  close(options?: { removeFiles?: boolean }): Promise<void>;
  /** A composite's members, each opened; openRepositories serves them as one CompositeRepository. */
  readonly composite?: { members: readonly OpenedMember[]; failOnError: boolean };
}

export interface OpenedMember {
  readonly name: string;
  readonly order: number;
  readonly opened: OpenedMirror;
  /** The property sources' name prefix (a git member's uri). */
  readonly displayUri: string;
  readonly searchPaths: readonly string[];
}

/** The repository port: opens the store of one repository at one (expanded) uri. */
export type OpenMirror = (definition: RepositoryDefinition, uri: string, name: string) => OpenedMirror;

export interface MirrorSettings {
  repositories: RepositorySettings;
  native: NativeSettings;
  /** spring.profiles.active=jdbc or redis: that database serves instead of Git. */
  database?: DatabaseBackendSettings | undefined;
  /** spring.profiles.active=composite: its members serve together. */
  composite?: CompositeSettings | undefined;
  /** The default repository's uri (the embedded sample's path when none is configured). */
  uri: string;
  cwd: string;
  /** Where mirrors go without a basedir (default: defaultMirrorsHome(), a cache folder). */
  mirrorsHome?: string;
  /** The server's own files, which no backend serves (default: none). */
  ownFiles?: ServerOwnFiles;
  logger: Logger;
}

/** The real stores: Git mirrors under basedir (or the mirrors home, mirrors-home.ts), or the native folders. */
export function mirrorsFromSettings({
  repositories,
  native,
  database,
  composite,
  uri,
  cwd,
  mirrorsHome,
  ownFiles = ServerOwnFiles.none,
  logger,
}: MirrorSettings): {
  openMirror: OpenMirror;
  /** Where the default repository's mirror lives. */
  basedir: string;
} {
  const home = repositories.basedir === undefined ? (mirrorsHome ?? defaultMirrorsHome()) : '';
  const mirrorsDir = (key: string): string =>
    join(home, createHash('sha256').update(key).digest('hex').slice(0, 16));
  const configuredBasedir = repositories.basedir;
  const basedir = resolve(cwd, configuredBasedir ?? mirrorsDir(uri));
  if (composite) {
    const openMember = (member: CompositeMemberSettings): OpenedMember =>
      openCompositeMember(member, { native, cwd, ownFiles, logger, ...(mirrorsHome ? { mirrorsHome } : {}) });
    return {
      openMirror: () => openComposite(composite.members.map(openMember), composite.failOnError),
      basedir,
    };
  }
  if (database) return { openMirror: () => openDatabase(database, logger), basedir };
  if (repositories.native) return { openMirror: () => openNative(native, cwd, ownFiles, logger), basedir };

  const directoryOf = (definition: RepositoryDefinition, expandedUri: string): string => {
    // The default repository is the one without patterns (a named one matches at least its own name).
    if (definition.patterns.length === 0 && expandedUri === uri) return basedir;
    const key = `${definition.name}\u0000${expandedUri}`;
    // Beside an explicit basedir (not inside it: that one is a bare repository of its own).
    return configuredBasedir === undefined
      ? resolve(cwd, mirrorsDir(key))
      : `${basedir}.repos/${createHash('sha256').update(key).digest('hex').slice(0, 16)}`;
  };

  const openMirror: OpenMirror = (definition, expandedUri, name) => {
    const directory = directoryOf(definition, expandedUri);
    const mirror = new GitMirror({
      // Spring's `file:./repo` and relative paths name a folder under the working directory.
      uri: localGitUri(expandedUri, cwd),
      basedir: directory,
      defaultLabel: definition.defaultLabel,
      refreshRateSeconds: definition.refreshRateSeconds,
      timeoutSeconds: definition.timeoutSeconds,
      timeoutSetting: definition.timeoutSetting,
      username: definition.username,
      password: definition.password,
      tryMasterBranch: definition.tryMasterBranch,
      deleteUntrackedBranches: definition.deleteUntrackedBranches,
      skipSslValidation: definition.skipSslValidation,
      proxy: definition.proxy,
      ssh: definition.ssh,
      ownFiles,
      logger: logger.child({ component: 'git', repository: name }),
    });
    return {
      mirror: gitRepository(mirror),
      async close(options) {
        await mirror.close();
        if (options?.removeFiles) await rm(directory, { recursive: true, force: true });
      },
    };
  };
  return { openMirror, basedir };
}

/** One composite member's store, opened by its own backend's port. */
function openCompositeMember(
  member: CompositeMemberSettings,
  shared: Omit<MirrorSettings, 'repositories' | 'uri'>,
): OpenedMember {
  const { name, order } = member;
  const logger = shared.logger.child({ member: name });
  if (member.type === 'native') {
    const opened = openNative(member.native, shared.cwd, shared.ownFiles ?? ServerOwnFiles.none, logger);
    return { name, order, opened, displayUri: 'native', searchPaths: opened.searchPaths ?? [] };
  }
  if (member.type !== 'git') {
    const opened = openDatabase(member.database, logger);
    return { name, order, opened, displayUri: opened.displayUri ?? member.type, searchPaths: [] };
  }
  const definition = member.repositories.defaultRepository;
  const { openMirror } = mirrorsFromSettings({
    ...shared,
    logger,
    repositories: member.repositories,
    uri: definition.uri,
  });
  const opened = openMirror(definition, definition.uri, name);
  return {
    name,
    order,
    opened,
    displayUri: maskUriUserInfo(definition.uri),
    searchPaths: definition.searchPaths,
  };
}

/** The composite: its members, in Spring's order, behind one repository (built by openRepositories). */
function openComposite(members: OpenedMember[], failOnError: boolean): OpenedMirror {
  const ordered = orderMembers(members);
  return {
    // Replaced by the CompositeRepository in openRepositories, which needs the environment dependencies.
    mirror: ordered[0]!.opened.mirror,
    displayUri: 'composite',
    searchPaths: [],
    composite: { members: ordered, failOnError },
    close: async () => {
      await Promise.all(ordered.map((member) => member.opened.close()));
    },
  };
}

/** The native backend: the folders of spring.cloud.config.server.native.search-locations. */
function openNative(
  native: NativeSettings,
  cwd: string,
  ownFiles: ServerOwnFiles,
  logger: Logger,
): OpenedMirror {
  const repository = new NativeRepository({
    ...native,
    cwd,
    ownFiles,
    warn: (message) => logger.warn({}, message),
  });
  return {
    mirror: repository,
    displayUri: 'native',
    searchPaths: repository.searchPaths(),
    close: () => repository.close(),
  };
}
