// @confbus/core/internal: NOT public API. Helpers that confbus's own packages (server, client, bus, CLI) share
// and that users of core do not need: they change with those packages, without notice or a major version. The
// public API is index.ts (`@confbus/core`).
export { setOwnProperty } from './codecs/flatten.js';
export { reviveJavaDoubles, samePropertyValue } from './codecs/property-value.js';
export { propertySourcesOf, type FileDocument } from './environment/config-file-order.js';
export {
  loadWithImports,
  type DocumentLoader,
  type ImportTreeRequest,
} from './environment/config-imports.js';
export { environmentForJson, propertySourceForJson } from './environment/property-origins.js';
export { cipherValuesIn } from './environment/resource-cipher-values.js';
export { hasUriPassword } from './secrets.js';
export { canonicalKey, environmentNamesFor, uniformKey } from './settings/relaxed-names.js';
export { parseArguments, splitList } from './settings/settings-resolver.js';
export { effectiveSettings } from './settings/effective-settings.js';
export { SettingsIndex, type KeyTarget } from './settings/settings-index.js';
export { unknownSettingMessage } from './settings/setting-suggestions.js';
export { unsupportedSettingMessage } from './settings/unsupported-setting.js';
export { MAX_BUS_FIELD_LENGTH, busEventFromJson } from './bus-events/bus-event-decoder.js';
export { guessServiceNames } from './bus-events/service-names.js';
export { antMatch } from './bus-events/ant-path-matcher.js';
export { simpleMatch, simpleMatcher, type SimpleMatcher } from './matching/simple-match.js';
export type { MatchWork } from './matching/token-automaton.js';
export { isBusEnabled } from './settings/bus-settings.js';
export { messageOf } from './errors/message-of.js';
export { reasonPhrase } from './errors/spring-error-body.js';
export { isDebugEnabled } from './logger.js';
export { carriesKeySecret, locateEncryptor } from './encryption/cipher-text.js';
export { keyStorePath, keyStoreReadError } from './encryption/encryption-settings.js';
export {
  loadTlsMaterial,
  tlsFilePath,
  type TlsFileReader,
  type TlsFileSource,
  type TlsKeyStoreSource,
  type TlsMaterial,
  type TlsSources,
  type TlsStoreSource,
} from './tls/tls-material.js';
export { storeSources, storeSpecs } from './settings/broker-tls-settings.js';
export { eachWithin } from './each-within.js';
