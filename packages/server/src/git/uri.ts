// Keeping credentials out of anything we log, throw, or pass to git on the command line. The redaction
// itself is core's, shared with the bus.
import { isAbsolute, resolve } from 'node:path';
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

/**
 * The uri given to git for a configured one. Spring reads a `file:` uri as a file URL (`file:./repo`,
 * `file:/srv/repo`, every fixture of its tests) and a plain relative path against the server's working
 * directory; git would read `file:./repo` as the scp-like `host:path` (ssh to a host named "file") and a relative
 * path against its own working directory. Both become absolute paths under `cwd`, so git reads the folder meant,
 * and the checks on a local upstream (the server's own files never served) see the real path. Anything else
 * (`file://`, a URL, an scp-like address, an absolute path) is git's to read as written.
 */
export function localGitUri(uri: string, cwd: string): string {
  const fileUrl = /^file:(?!\/\/)(.*)$/is.exec(uri);
  if (fileUrl) return resolve(cwd, decodedPath(fileUrl[1] as string));
  if (uri === '' || isAbsolute(uri)) return uri;
  // git's own rule (url_is_local_not_ssh): a local path has no colon before its first slash.
  const colon = uri.indexOf(':');
  const slash = uri.indexOf('/');
  return colon < 0 || (slash >= 0 && slash < colon) ? resolve(cwd, uri) : uri;
}

/** A file URL's path, percent-decoded as Spring's UrlResource.getFile decodes it (as written if malformed). */
function decodedPath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
