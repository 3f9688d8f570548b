// Builds environments from file texts with core's codecs and precedence, as the server does: test fixtures only.
import { type Environment, buildPropertySources, parseConfigFile } from '@confbus/core';

/** `files` highest precedence first (as candidateConfigFiles orders them). */
export function environmentOf(name: string, profiles: string[], files: Record<string, string>): Environment {
  const loaded = Object.entries(files).map(([path, text]) => ({
    path,
    profile: null,
    documents: parseConfigFile(path, text),
  }));
  return {
    name,
    profiles,
    label: null,
    version: null,
    state: null,
    propertySources: buildPropertySources(loaded, profiles, 'repo'),
  };
}
