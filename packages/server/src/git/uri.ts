// Keeping credentials out of anything we log, throw, or pass to git on the command line. The redaction
// itself is core's, shared with the bus.
import { maskUriUserInfo, redactText } from '@confbus/core';

export { redactText };

/** The uri with any `user:password@` userinfo removed (for logs, errors and health output). */
export function redactUri(uri: string): string {
  return redactText(uri);
}

/**
 * The uri as the start-up log and the console show it: a password masked (`user:******@`), or all of the user
 * info removed when a secret went into the uri through a placeholder (`https://${GIT_TOKEN}@host/...`).
 */
export function displayUri(uri: string, fromSecret: boolean): string {
  return fromSecret ? redactText(uri) : maskUriUserInfo(uri);
}

/**
 * Splits credentials embedded in an http(s) uri out of it, so the uri given to git carries none.
 * Explicit username/password options win over embedded ones.
 */
export function splitCredentials(
  uri: string,
  username?: string,
  password?: string,
): { uri: string; username?: string; password?: string } {
  const match = /^(https?:\/\/)([^/@]*)@(.*)$/i.exec(uri);
  if (!match) return { uri, username, password };
  const [, scheme = '', userinfo = '', rest = ''] = match;
  const colon = userinfo.indexOf(':');
  const embeddedUser = decodeURIComponent(colon < 0 ? userinfo : userinfo.slice(0, colon));
  const embeddedPassword = colon < 0 ? undefined : decodeURIComponent(userinfo.slice(colon + 1));
  return {
    uri: scheme + rest,
    username: username ?? embeddedUser,
    password: password ?? embeddedPassword,
  };
}
