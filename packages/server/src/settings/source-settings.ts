/**
 * Where configuration comes from besides the Git uri: the embedded sample, or the native profile (its folders:
 * native/native-settings.ts); repository-source.ts reads them (docs/repositories.md).
 */
import type { SettingSpec } from '@confbus/core';

/** The embedded sample as the default repository: only when asked for (`npm start` asks). */
export const SAMPLE_REPOSITORY = 'confbus.server.sample-repository';

export const sourceSettingSpecs: readonly SettingSpec[] = [
  {
    key: SAMPLE_REPOSITORY,
    type: 'boolean',
    default: false,
    description:
      'Serve an embedded sample repository (made once under .confbus/sample-config-repo) to try confbus out; `npm start` sets it. Not with git.uri or the native profile; with none of the three the server refuses to start, as Spring does',
  },
  {
    key: 'spring.profiles.active',
    type: 'list',
    default: [],
    description: "The server's profiles: `native` serves folders (native.search-locations) instead of Git",
  },
];
