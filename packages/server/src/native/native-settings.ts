/** The native backend's settings (docs/repositories.md), read once: the folders served and their labels. */
import type { SettingSpec, Settings } from '@confbus/core';

const NATIVE = 'spring.cloud.config.server.native';
/** Spring Boot's own locations, less its `classpath:` ones (confbus has no classpath). */
const DEFAULT_SEARCH_LOCATIONS = ['file:./', 'file:./config/'];

export const nativeSettingSpecs: readonly SettingSpec[] = [
  {
    key: `${NATIVE}.search-locations`,
    type: 'list',
    default: DEFAULT_SEARCH_LOCATIONS,
    description:
      'With the native profile: folders to serve, in precedence order (later wins); file: paths, {application}/{profile}/{label} allowed; empty means the default, as in Spring',
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
  const searchLocations = settings.list(`${NATIVE}.search-locations`);
  return {
    // Set empty, Spring's NativeEnvironmentRepository.getLocations searches its defaults.
    searchLocations: searchLocations.length > 0 ? searchLocations : DEFAULT_SEARCH_LOCATIONS,
    defaultLabel: settings.string(`${NATIVE}.default-label`),
    addLabelLocations: settings.boolean(`${NATIVE}.add-label-locations`),
  };
}
