/**
 * Which property keys hold secrets, following Spring Boot's sanitizer. A stand-in until
 * @confbus/core exports `isSecretKey`/`maskValue` (core's secrets.ts), then this file goes.
 */
const SECRET_PARTS = ['password', 'secret', 'token', 'credentials', 'vcap_services'];

export function isSecretKey(key: string): boolean {
  const lower = key.toLowerCase();
  if (SECRET_PARTS.some((part) => lower.includes(part))) return true;
  // `key` only counts in the last segment: `backup.key`, `api-key`, but not `keystore.type`.
  const last = lower.slice(lower.lastIndexOf('.') + 1).replace(/\[\d+\]$/, '');
  return last.endsWith('key');
}

export function maskValue(): string {
  return '******';
}

/** `https://user:pw@host` → `https://user:******@host`, for every URI in the text (comma lists too). */
export function maskUriUserInfo(uri: string): string {
  return uri.replace(/([a-z][a-z0-9+.-]*:\/\/[^\s:/@,]*):[^\s/@,]*@/gi, `$1:${maskValue()}@`);
}
