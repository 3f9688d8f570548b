/**
 * Parsing and checking of HTTP basic credentials. The comparison is constant-time in the content of the
 * credentials: both sides are hashed to a fixed length first, so neither a mismatching byte's position nor
 * the password's length shows in the response time.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

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

const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/** Holds the expected credentials (as digests only) and checks presented ones against them. */
export class CredentialsVerifier {
  private readonly username: Buffer;
  private readonly password: Buffer;

  constructor(expected: BasicCredentials) {
    this.username = digest(expected.username);
    this.password = digest(expected.password);
  }

  verify(presented: BasicCredentials | undefined): boolean {
    // Both comparisons always run (no short-circuit), so a right user name costs the same as a wrong one.
    const userOk = timingSafeEqual(this.username, digest(presented?.username ?? ''));
    const passwordOk = timingSafeEqual(this.password, digest(presented?.password ?? ''));
    return presented !== undefined && userOk && passwordOk;
  }

  /** Keeps the expected credentials out of util.inspect / JSON output should this object ever be logged. */
  toJSON(): string {
    return '[CredentialsVerifier]';
  }
}
