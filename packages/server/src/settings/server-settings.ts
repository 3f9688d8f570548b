/** Every setting the config server understands, with Spring's names and defaults, assembled by area. */
import { type SettingSpec, busSettingSpecs, settingsFileSpecs } from '@confbus/core';
import { serverEncryptionSettingSpecs } from '../encryption/encryption-settings.js';
import { gitSettingSpecs, placeholderRepositorySettingSpecs } from './git-settings.js';
import { healthSettingSpecs } from './health-settings.js';
import { cacheAndFileLimitSettingSpecs, requestLimitSettingSpecs } from './limit-settings.js';
import {
  loggingSettingSpecs,
  monitorAndConsoleSettingSpecs,
  securitySettingSpecs,
} from './operation-settings.js';
import { prefixSettingSpecs } from './prefix-settings.js';
import { emptyAndResourceSettingSpecs, sourceSettingSpecs } from './source-settings.js';

export const serverSettingSpecs: readonly SettingSpec[] = [
  ...settingsFileSpecs,
  {
    key: 'server.port',
    type: 'integer',
    default: 8888,
    min: 0,
    max: 65535,
    description: 'HTTP port (0 = any free port)',
  },
  { key: 'server.address', type: 'string', default: '0.0.0.0', description: 'Interface to listen on' },
  {
    key: 'spring.application.name',
    type: 'string',
    default: 'configserver',
    description: "The server's own name (its bus id starts with it)",
  },
  ...prefixSettingSpecs,
  ...gitSettingSpecs,
  ...sourceSettingSpecs,
  ...placeholderRepositorySettingSpecs,
  ...emptyAndResourceSettingSpecs,
  ...cacheAndFileLimitSettingSpecs,
  ...loggingSettingSpecs,
  ...requestLimitSettingSpecs,
  ...securitySettingSpecs,
  ...healthSettingSpecs,
  ...serverEncryptionSettingSpecs,
  ...busSettingSpecs,
  ...monitorAndConsoleSettingSpecs,
];
