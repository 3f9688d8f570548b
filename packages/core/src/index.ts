// The public API of @confbus/core (see README.md): what a user of core needs (the codecs and values, the
// environment model and its renderings, settings resolution, the bus wire format, Spring's {cipher} format,
// errors, the Logger interface, the console API's JSON shapes). Helpers only confbus's own packages share are
// `@confbus/core/internal` (internal.ts); the rest of src/ is private: tests import it from src.
export { isConfigFileName, parseConfigFile } from './codecs/config-file.js';
export type { FlatProperties } from './codecs/flatten.js';
export { JavaDouble, isJavaDouble, javaDoubleText, type PropertyValue } from './codecs/property-value.js';
export { parseJson, parseJsonExactIntegers, parseJsonInOrder, writeJson } from './codecs/json-codec.js';
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
  type ProfileRules,
  validateApplicationName,
  validateProfile,
  validateProfiles,
} from './environment/request-names.js';
export {
  buildPropertySources,
  candidateConfigFiles,
  type CandidateFile,
  type CandidateRequest,
  type LoadedConfigFile,
} from './environment/config-file-order.js';
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
export { PLACEHOLDER_LIMITS, PlaceholderLimitError } from './environment/placeholder-limits.js';
export { isSecretKey, maskPropertyValue, maskUriUserInfo, maskValue, redactText } from './secrets.js';
export { busSettingSpecs, settingsFileSpecs } from './settings/common-settings.js';
export {
  readBusSettings,
  type BrokerConnection,
  type BusBinder,
  type BusSettings,
  type BusTransportSettings,
  type KafkaBusSettings,
} from './settings/bus-settings.js';
export type { SettingSpec, SettingType, SettingValue } from './settings/setting-spec.js';
export {
  Settings,
  SettingsError,
  resolveSettings,
  type ResolveOptions,
  type SettingSource,
  type SettingsInput,
} from './settings/settings-resolver.js';
export type { UnsupportedSetting } from './settings/unsupported-setting.js';
export {
  parseSettingsFileLocation,
  settingsFileLocation,
  type SettingsFileLocation,
} from './settings/settings-file-location.js';
export { readSettingsFile } from './settings/settings-file-reader.js';
export { decodeBusEvent, refreshOutcome } from './bus-events/bus-event-decoder.js';
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
  acksRefresh,
  isShutdownEvent,
  type AckBusEvent,
  type BusEvent,
  type EnvironmentChangeBusEvent,
  type RefreshBusEvent,
  type RefreshOutcome,
  type UnknownBusEvent,
} from './bus-events/bus-event.js';
export {
  defaultBusId,
  addresses,
  isForSelf,
  isFromSelf,
  matchesServicePattern,
  type BusIdParts,
} from './bus-events/service-matcher.js';
export {
  MAX_PRESENCE_CONTRACT_CHARS,
  PRESENCE_DESTINATION,
  PRESENCE_EVENT_TYPE,
  PRESENCE_REQUEST_EVENT_TYPE,
  createPresenceAnnouncement,
  createPresenceRequest,
  isPresenceRequest,
  readPresenceAnnouncement,
  type PresenceAnnouncement,
  type PresenceInfo,
} from './bus-events/presence-event.js';
export {
  INSTANCE_ID_HEADER,
  INSTANCE_TAGS_HEADER,
  MAX_INSTANCE_HEADER_LENGTH,
  ROLLOUT_HEADER,
  formatInstanceTags,
  instanceIdentityOf,
  parseInstanceTags,
  type InstanceIdentity,
} from './rollouts/instance-identity.js';
export { ConfbusError, defineErrors, isConfbusError, type ErrorDescriptor } from './errors/confbus-error.js';
export { springErrorBody, type SpringErrorBody } from './errors/spring-error-body.js';
export { coreErrors } from './errors.js';
export { silentLogger, type Logger } from './logger.js';
export type {
  ConsoleAck,
  ConsoleApplication,
  ConsoleApplicationCommits,
  ConsoleApplications,
  ConsoleCommitDetails,
  ConsoleCommitSummary,
  ConsoleDiff,
  ConsoleEnvironment,
  ConsoleEnvironmentChanges,
  ConsoleEventType,
  ConsoleEvents,
  ConsoleLabel,
  ConsoleOverriddenValue,
  ConsoleOverview,
  ConsolePaged,
  ConsoleProperty,
  ConsolePropertyOrigin,
  ConsolePush,
  ConsoleRefreshEvent,
  ConsoleRefreshPublished,
  ConsoleRefreshRequest,
  ConsoleRepositoryState,
  ConsoleSession,
  ConsoleTimelinePoint,
  ConsoleValue,
} from './console/console-api.js';
export type {
  ConsoleFleet,
  ConsoleInstance,
  ConsoleRefreshOutcome,
  ConsoleSyncState,
} from './console/console-fleet.js';
export type { ConsoleAuditEntry, ConsoleAuditLog } from './console/console-audit.js';
export type {
  ConsoleHold,
  ConsoleHoldRelease,
  ConsoleHoldViolation,
  ConsoleHolds,
  ConsoleReleaseRequest,
} from './console/console-holds.js';
export type {
  ConsoleRollout,
  ConsoleRolloutAction,
  ConsoleRolloutActionRequest,
  ConsoleRolloutDecision,
  ConsoleRolloutDetails,
  ConsoleRolloutGroup,
  ConsoleRolloutHealth,
  ConsoleRolloutInstance,
  ConsoleRolloutStatus,
  ConsoleRolloutWave,
  ConsoleRollouts,
} from './console/console-rollouts.js';
export { AesTextEncryptor, type AesMode } from './encryption/aes-encryptor.js';
export {
  CIPHER_MARKER,
  DEFAULT_SCOPE,
  decryptText,
  encryptText,
  isCipherValue,
  type CipherScope,
} from './encryption/cipher-text.js';
export {
  createEncryptorLocator,
  encryptionSettingSpecs,
  readEncryptionSettings,
  type EncryptionSettings,
  type KeyStoreSettings,
} from './encryption/encryption-settings.js';
export type { TextEncryptorLocator } from './encryption/encryptor-locator.js';
export {
  decryptEnvironment,
  type CipherFailure,
  type DecryptEnvironmentOptions,
} from './encryption/environment-decryption.js';
export type { KeyStoreOptions } from './encryption/key-store.js';
export type { StepRunner } from './step-runner.js';
export { parseRsaPrivateKeyPem, type RsaKeyPair } from './encryption/rsa-keys.js';
export {
  RsaSecretEncryptor,
  type RsaAlgorithm,
  type RsaSecretOptions,
} from './encryption/rsa-secret-encryptor.js';
export type { TextEncryptor } from './encryption/text-encryptor.js';
export {
  BUS_SIGNING_MODES,
  type BusSigningMode,
  type BusSigningSettings,
} from './settings/bus-signing-settings.js';
export type { BrokerTls } from './settings/broker-tls-settings.js';
export type { KafkaSasl, KafkaSecurity } from './settings/kafka-security-settings.js';
