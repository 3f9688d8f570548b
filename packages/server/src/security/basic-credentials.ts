/** Parsing of HTTP basic credentials (`Authorization: Basic <base64(user:password)>`). */

export interface BasicCredentials {
  username: string;
  password: string;
}

/** The credentials of an `Authorization: Basic <base64(user:password)>` header, or undefined. */
export function parseBasicAuthorization(header: string | undefined): BasicCredentials | undefined {
  if (header === undefined) return undefined;
  const match = /^Basic[ \t]+([A-Za-z0-9+/]+={0,2})[ \t]*$/i.exec(header);
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}
