// The public API of @confbus/core (see README.md). Everything else in src/ is internal: tests import it from src.
export { isConfigFileName, parseConfigFile } from './codecs/config-file.js';
export type { TreeList, TreeMap, TreeNode } from './environment/property-tree.js';
export { type FlatProperties, setFlatProperty } from './codecs/flatten.js';
export {
  JavaDouble,
  isJavaDouble,
  javaDoubleText,
  reviveJavaDoubles,
  samePropertyValue,
  type PropertyValue,
} from './codecs/property-value.js';
export { parseJson, parseJsonExactIntegers, writeJson } from './codecs/json-codec.js';
export type { ProfileExpression, ProfileNode } from './codecs/profile-expression.js';
export {
  ConfigParseError,
  type ConfigDocument,
  type ConfigParseErrorDetails,
} from './codecs/config-document.js';
export type { Environment, PropertySource } from './environment/environment.js';
export {
  decodeSpringSegment,
  parseApplications,
  parseProfiles,
  validateApplicationName,
  validateProfile,
  validateProfiles,
} from './environment/request-names.js';
export {
  buildPropertySources,
  candidateConfigFiles,
  type CandidateFile,
  type CandidateRequest,
  type FileDocument,
  type LoadedConfigFile,
  propertySourcesOf,
} from './environment/config-file-order.js';
export {
  type DocumentLoader,
  type ImportTreeRequest,
  MAX_IMPORTED_FILES,
  loadWithImports,
  resolveLocation,
} from './environment/config-imports.js';
export {
  rememberOrigins,
  sourceWithOrigins,
  storedSourcesByName,
  withOrigins,
} from './environment/property-origins.js';
export { cipherValuesIn } from './environment/resource-cipher-values.js';
export {
  mergeForRendering,
  renderEnvironment,
  renderJson,
  renderProperties,
  renderYaml,
  type RenderFormat,
  type YamlRenderOptions,
} from './environment/render-formats.js';
export {
  renderingPlaceholders,
  resolveValuePlaceholders,
  type CircularPlaceholders,
  type PlaceholderLookup,
  type RenderingPlaceholders,
} from './environment/placeholders.js';
export { PlaceholderCycleError } from './environment/placeholder-resolver.js';
export {
  hasUriPassword,
  isSecretKey,
  maskPropertyValue,
  maskUriUserInfo,
  maskValue,
  redactText,
} from './secrets.js';
export { busSettingSpecs, settingsFileSpecs } from './settings/common-settings.js';
export { canonicalKey, environmentNamesFor } from './settings/relaxed-names.js';
export type { SettingSpec, SettingType, SettingValue } from './settings/setting-spec.js';
export {
  Settings,
  SettingsError,
  parseArguments,
  resolveSettings,
  splitList,
  type ResolveOptions,
  type SettingSource,
  type SettingsInput,
} from './settings/settings-resolver.js';
export {
  parseSettingsFileLocation,
  settingsFileLocation,
  type SettingsFileLocation,
} from './settings/settings-file-location.js';
export { readSettingsFile } from './settings/settings-file-reader.js';
export { effectiveSettings } from './settings/effective-settings.js';
export { SettingsIndex, type KeyTarget } from './settings/settings-index.js';
export { nearestSetting, unknownSettingMessage } from './settings/setting-suggestions.js';
export { type UnsupportedSetting, unsupportedSettingMessage } from './settings/unsupported-setting.js';
export { busEventFromJson, decodeBusEvent } from './bus/bus-event-decoder.js';
export {
  BusMessageError,
  SHUTDOWN_EVENT_TYPE,
  createAckEvent,
  createEnvironmentChangeEvent,
  createRefreshEvent,
  createShutdownEvent,
  encodeBusEvent,
  isAckEvent,
  isEnvironmentChangeEvent,
  isRefreshEvent,
  isShutdownEvent,
  type AckBusEvent,
  type BusEvent,
  type EnvironmentChangeBusEvent,
  type RefreshBusEvent,
  type UnknownBusEvent,
} from './bus/bus-event.js';
export {
  defaultBusId,
  isForSelf,
  isFromSelf,
  matchesServicePattern,
  type BusIdParts,
} from './bus/service-matcher.js';
export { guessServiceNames } from './bus/service-names.js';
export {
  brokerConnection,
  busBinder,
  busTransportSettings,
  isBusEnabled,
  kafkaBrokers,
  kafkaBusSettings,
  readBusMemberSettings,
  type BrokerConnection,
  type BusBinder,
  type BusMemberSettings,
  type BusTransportSettings,
  type KafkaBusSettings,
} from './bus/bus-settings.js';
export {
  PRESENCE_EVENT_TYPE,
  PRESENCE_REQUEST_EVENT_TYPE,
  createPresenceAnnouncement,
  createPresenceRequest,
  isPresenceRequest,
  readPresenceAnnouncement,
  type PresenceAnnouncement,
  type PresenceInfo,
} from './bus/presence-event.js';
export { ConfbusError, defineErrors, isConfbusError, type ErrorDescriptor } from './errors/confbus-error.js';
export { reasonPhrase, springErrorBody, type SpringErrorBody } from './errors/spring-error-body.js';
export {
  PLACEHOLDER_LIMITS,
  PlaceholderBudget,
  PlaceholderBudgetExceeded,
  PlaceholderLimitError,
} from './environment/placeholder-limits.js';
export { isDebugEnabled, silentLogger, type Logger } from './logger.js';
export { coreErrors } from './errors.js';
export { AesTextEncryptor, type AesMode } from './encryption/aes-encryptor.js';
export {
  CIPHER_MARKER,
  DEFAULT_SCOPE,
  carriesKeySecret,
  decryptText,
  encryptText,
  isCipherValue,
  locateEncryptor,
  type CipherScope,
} from './encryption/cipher-text.js';
export {
  createEncryptorLocator,
  encryptionSettingSpecs,
  keyStorePath,
  keyStoreReadError,
  readEncryptionSettings,
  type EncryptionSettings,
  type KeyStoreSettings,
} from './encryption/encryption-settings.js';
export { KeyStoreTextEncryptorLocator, type TextEncryptorLocator } from './encryption/encryptor-locator.js';
export {
  decryptEnvironment,
  type CipherFailure,
  type DecryptEnvironmentOptions,
} from './encryption/environment-decryption.js';
export type { KeyStoreOptions } from './encryption/key-store.js';
export { parseRsaPrivateKeyPem, type RsaKeyPair } from './encryption/rsa-keys.js';
export {
  RsaSecretEncryptor,
  type RsaAlgorithm,
  type RsaSecretOptions,
} from './encryption/rsa-secret-encryptor.js';
export type { TextEncryptor } from './encryption/text-encryptor.js';
