/**
 * A repository uri with `{application}`, `{profile}` or `{label}` in it: the request chooses part of the uri,
 * so two rules keep it choosing a repository and nothing else (server-side request forgery otherwise).
 *
 * At start (uriTemplateProblem): placeholders may stand in the path only. A uri is read as git reads it — a URL
 * (`scheme://[user@]host[:port]/path`), an scp-like address (`[user@]host:path`, a colon before any slash), a
 * remote helper (`ext::…`, `fd::…`: refused outright, its address is the helper's to interpret) or a local path —
 * and a placeholder in the scheme, user info, host, port, query or fragment stops the start, naming the setting.
 * Spring refuses a placeholder in the host or port (AbstractScmAccessor.validateNoTemplateInAuthority); confbus
 * also the scheme and user info.
 *
 * Per request (expand): a value fills a path only if it cannot leave it — letters A-Z, digits, `.`, `_`, `-`,
 * and `/` between names (Spring's `(_)`, for a repository in a sub-folder), no `..`, no segment starting with
 * `.` or `-` (a leading `-` could start a git option). `@ : ? # % \` and control characters are refused whatever
 * their use, with 400 CONFBUS_INVALID_REPOSITORY_NAME naming the value: so no request makes git connect anywhere
 * but the configured host and port, nor read another path than a sibling (or child) of the template's.
 */
import { ConfbusError } from '@confbus/core';
import { serverErrors } from '../errors.js';

const PLACEHOLDER = /\{(?:application|profile|label)\}/;
const MAX_VALUE_LENGTH = 200;
const NAME = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/;
/** A remote helper's address: `<transport>::<address>` (git's transport_get). */
const REMOTE_HELPER = /^[A-Za-z][A-Za-z0-9+.-]*::/;

export type TemplateValues = Readonly<Record<'application' | 'profile' | 'label', string>>;

/** Whether `uri` holds a placeholder a request fills. */
export function isUriTemplate(uri: string): boolean {
  return PLACEHOLDER.test(uri);
}

/**
 * What is wrong with a uri template (a sentence for the settings error), or undefined when its placeholders all
 * stand in the path. A uri without placeholders is never wrong here.
 */
export function uriTemplateProblem(uri: string): string | undefined {
  const first = uri.search(PLACEHOLDER);
  if (first < 0) return undefined;
  if (REMOTE_HELPER.test(uri)) {
    return 'a remote-helper address (<transport>::<address>) has no path a request could fill; placeholders may fill the path of a URL, an scp-like address or a local path only';
  }
  const part = partAt(uri, first);
  return part === 'path'
    ? undefined
    : `a placeholder in the ${part} would let a request choose where the server connects; placeholders may fill the path only (Spring's (_) for a sub-folder)`;
}

type UriPart = 'scheme' | 'user info' | 'host' | 'port' | 'query or fragment' | 'path';

/** Which part of `uri`, read as git reads it, the character at `index` belongs to. */
function partAt(uri: string, index: number): UriPart {
  const separator = uri.indexOf('://');
  if (separator >= 0 && !uri.slice(0, separator).includes('/')) {
    if (index < separator) return 'scheme';
    const start = separator + 3;
    const end = indexOfAny(uri, '/?#', start);
    if (index < end) return authorityPart(uri.slice(start, end), index - start);
    const query = indexOfAny(uri, '?#', end);
    return index >= query ? 'query or fragment' : 'path';
  }
  const colon = scpColon(uri);
  if (colon !== undefined && index < colon) return authorityPart(uri.slice(0, colon), index);
  return 'path';
}

/** `[user[:password]@]host[:port]`: which of them `index` falls in. */
function authorityPart(authority: string, index: number): UriPart {
  const at = authority.lastIndexOf('@');
  if (index < at) return 'user info';
  const host = authority.slice(at + 1);
  const offset = index - (at + 1);
  const close = host.startsWith('[') ? host.indexOf(']') : -1;
  const colon = host.indexOf(':', close + 1);
  return colon >= 0 && offset > colon ? 'port' : 'host';
}

/** The colon ending the host of an scp-like address (`host:path`, `[host:port]:path`): one before any slash. */
function scpColon(uri: string): number | undefined {
  const close = uri.startsWith('[') ? uri.indexOf(']') : -1;
  const colon = uri.indexOf(':', close + 1);
  const slash = uri.indexOf('/');
  return colon >= 0 && (slash < 0 || colon < slash) ? colon : undefined;
}

function indexOfAny(text: string, characters: string, from: number): number {
  for (let i = from; i < text.length; i++) if (characters.includes(text[i] as string)) return i;
  return text.length;
}

/**
 * The uri for one request's values; a value that could leave the path is refused (400 naming it). `repository` is
 * the repository's name, for the message.
 */
export function expandUriTemplate(uri: string, values: TemplateValues, repository: string): string {
  let expanded = uri;
  for (const name of ['application', 'profile', 'label'] as const) {
    const token = `{${name}}`;
    if (!uri.includes(token)) continue;
    const value = values[name];
    const problem = valueProblem(value);
    if (problem !== undefined) {
      const shown = JSON.stringify(value.length > 100 ? `${value.slice(0, 100)}…` : value);
      throw new ConfbusError(
        serverErrors.CONFBUS_INVALID_REPOSITORY_NAME,
        `${shown} cannot name a repository (${token} in the uri of repository '${repository}'): ${problem}`,
      );
    }
    expanded = expanded.split(token).join(value);
  }
  return expanded;
}

/** Why `value` may not fill a uri's path, or undefined when it may. */
function valueProblem(value: string): string | undefined {
  if (value === '') return 'it is empty';
  if (value.length > MAX_VALUE_LENGTH) return `it is longer than ${MAX_VALUE_LENGTH} characters`;
  const bad = /[@:?#%\\,\s\p{Cc}]/u.exec(value)?.[0];
  if (bad !== undefined) return `${characterReason(bad)}; ${ALLOWED}`;
  for (const segment of value.split('/')) {
    if (segment === '') return `an empty path segment (a leading, trailing or doubled "/"); ${ALLOWED}`;
    if (segment.includes('..')) return '".." could climb out of the path';
    if (segment.startsWith('-')) return 'a segment starting with "-" could start a git option';
    if (segment.startsWith('.')) return 'a segment may not start with "."';
    if (!NAME.test(segment)) return ALLOWED;
  }
  return undefined;
}

const ALLOWED = 'only letters A-Z, digits, ".", "_", "-" and "/" between names ((_) in a URL) are allowed';

function characterReason(character: string): string {
  switch (character) {
    case '@':
      return '"@" could change the user info or host';
    case ':':
      return '":" could change the scheme, host or port';
    case '?':
    case '#':
      return `"${character}" could start a query or fragment`;
    case '%':
      return '"%" could percent-encode any of these';
    case '\\':
      return 'a backslash is a path separator to some transports';
    case ',':
      return 'two applications or profiles cannot name one repository';
    default:
      return 'spaces and control characters are not allowed';
  }
}
