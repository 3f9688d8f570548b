/** The native backend's settings (docs/repositories.md), read once: the folders served and their labels. */
import type { SettingSpec, Settings } from '@confbus/core';

const NATIVE = 'spring.cloud.config.server.native';

export const nativeSettingSpecs: readonly SettingSpec[] = [
  {
    key: `${NATIVE}.search-locations`,
    type: 'list',
    default: ['file:./', 'file:./config/'],
    description:
      'With the native profile: folders to serve, in precedence order (later wins); file: paths, {application}/{profile}/{label} allowed',
  },
  {
    key: `${NATIVE}.default-label`,
    type: 'string',
    default: 'master',
    description: 'With the native profile: the label (sub-folder) used when a request names none',
  },
  {
    key: `${NATIVE}.add-label-locations`,
    type: 'boolean',
    default: true,
    description: 'With the native profile: also search <location>/<label>/ for each plain location',
  },
];

export interface NativeSettings {
  readonly searchLocations: readonly string[];
  readonly defaultLabel: string;
  readonly addLabelLocations: boolean;
}

export function readNativeSettings(settings: Settings): NativeSettings {
  return {
    searchLocations: settings.list(`${NATIVE}.search-locations`),
    defaultLabel: settings.string(`${NATIVE}.default-label`),
    addLabelLocations: settings.boolean(`${NATIVE}.add-label-locations`),
  };
}
