/**
 * The repositories a server serves, read once from its settings (git-settings.ts declares the keys): the default
 * one (default-repository-settings.ts) and the named ones (named-repository-settings.ts), in the order configured;
 * under the native profile one set of folders instead.
 */
import type { Settings } from '@confbus/core';
import {
  GIT,
  type RepositoryDefinition,
  defaultRepositoryDefinition,
} from './default-repository-settings.js';
import { namedRepositoryDefinitions } from './named-repository-settings.js';

export type { RepositoryDefinition };

export interface RepositorySettings {
  /** spring.profiles.active=native: the native backend's folders are served, not Git. */
  readonly native: boolean;
  /** Its uri as configured ('' when none is: the embedded sample's path or a test's fake is filled in). */
  readonly defaultRepository: RepositoryDefinition;
  readonly named: readonly RepositoryDefinition[];
  /** What was ignored (unknown repos.* properties, repos.* under native): logged when they are opened. */
  readonly warnings: readonly string[];
  readonly basedir: string | undefined;
  readonly maxPlaceholderRepositories: number;
  readonly uriIsSecret: boolean; // the start-up line masks a secret uri
}

export function readRepositorySettings(settings: Settings): RepositorySettings {
  const native = settings.list('spring.profiles.active').includes('native');
  const warnings: string[] = [];
  const defaultRepository = native
    ? { ...defaultRepositoryDefinition(settings, 'native'), searchPaths: [] }
    : defaultRepositoryDefinition(settings, settings.optionalString(`${GIT}.uri`) ?? '');
  let named = namedRepositoryDefinitions(settings, defaultRepository, (message) => warnings.push(message));
  if (native && named.length > 0) {
    warnings.push(`spring.profiles.active=native: ${GIT}.repos.* are ignored (one set of folders is served)`);
    named = [];
  }
  return {
    native,
    defaultRepository,
    named,
    warnings,
    basedir: settings.optionalString(`${GIT}.basedir`),
    maxPlaceholderRepositories: settings.number('confbus.server.git.max-placeholder-repositories'),
    uriIsSecret: settings.isSecret(`${GIT}.uri`),
  };
}
