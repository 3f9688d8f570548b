/**
 * Which property values are secrets, after Spring Boot's `Sanitizer` defaults, and how to
 * show them: keys containing password, secret, token, credentials or vcap_services
 * (case-insensitive), keys whose last segment ends in `key`, plus the `sun.java.command` and
 * `spring.application.json` keys Boot also masks. Used by logs, `/actuator/env` and backups.
 */
import type { PropertyValue } from './codecs/property-value.js';
import { isCipherValue } from './encryption/cipher-text.js';

const MASK = '******';
const CONTAINS = ['password', 'secret', 'token', 'credentials', 'vcap_services', 'vcap.services'];
const EXACT = new Set(['sun.java.command', 'spring.application.json', 'spring_application_json']);

export function isSecretKey(key: string): boolean {
  const lower = key.toLowerCase();
  if (EXACT.has(lower)) return true;
  if (CONTAINS.some((word) => lower.includes(word))) return true;
  // Only the last segment for `key`, so `keystore.type` or `key.alias` stay visible.
  const lastSegment =
    lower
      .replace(/(?:\[\d+\])+$/, '')
      .split('.')
      .pop() ?? lower;
  return lastSegment.endsWith('key');
}

/** The constant shown instead of a secret value; its length reveals nothing. */
export function maskValue(_value?: unknown): string {
  return MASK;
}

/**
 * Masks the password in URI user info, for every URI in the text (comma lists included):
 * `https://user:pw@host` → `https://user:******@host`.
 */
export function maskUriUserInfo(uri: string): string {
  return uri.replace(URI_USER_INFO_PASSWORD, `$1:${MASK}@`);
}

/** `scheme://user:password@` anywhere in the text (`jdbc:postgresql://app:pw@host/db` too). */
const URI_USER_INFO_PASSWORD = /([a-z][a-z0-9+.-]*:\/\/[^\s:/@,]*):[^\s/@,]*@/gi;

/**
 * True when the value holds a URI with a password in its user info: such a value is a secret whatever its
 * key (a datasource URL under `spring.datasource.url`), as `/actuator/env` already masks it.
 */
export function hasUriPassword(value: unknown): boolean {
  if (typeof value !== 'string' || !value.includes('@')) return false;
  URI_USER_INFO_PASSWORD.lastIndex = 0;
  return URI_USER_INFO_PASSWORD.test(value);
}

/**
 * A property value as `/actuator/env` shows it: the mask for a secret key and for a `{cipher}` value (a secret
 * whatever its key, and its `{secret:...}` prefix is a key password in clear), URI passwords masked in any other
 * string. The client's env endpoint and the server's console both show values through this, so they agree.
 */
export function maskPropertyValue<T extends PropertyValue>(key: string, value: T): T | string {
  if (isSecretKey(key) || isCipherValue(value)) return maskValue();
  return typeof value === 'string' ? maskUriUserInfo(value) : value;
}

/** `scheme://userinfo@` anywhere in free text. */
const URI_USER_INFO = /([a-zA-Z][a-zA-Z0-9+.-]*:\/\/)[^/@\s]*@/g;

/**
 * Free text we log or throw (an error message, git's or a broker's output) with the user info of every URI
 * removed (all of it: a lone user name can be a token) and each given secret value replaced by `***`.
 * Secrets shorter than `minSecretLength` are only removed inside URIs, where replacing a short value
 * everywhere would garble the text.
 */
export function redactText(text: string, secrets: readonly string[] = [], minSecretLength = 1): string {
  let out = text.replace(URI_USER_INFO, '$1');
  for (const secret of secrets) if (secret.length >= minSecretLength) out = out.split(secret).join('***');
  return out;
}
