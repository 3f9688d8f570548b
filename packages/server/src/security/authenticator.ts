/**
 * Turns an Authorization header into a Principal. A header verified once is remembered (by its SHA-256 digest,
 * never as text) so the next request with it costs one digest and a map lookup, not a bcrypt round: clients send
 * the same header all day, and the repeat-request fast path answers only requests whose header is remembered.
 * Failures are never remembered (a wrong password costs its bcrypt round every time; login-throttle.ts bounds how
 * many an address may try). Every comparison is constant-time, and an unknown user name costs the same bcrypt
 * round as a known one with a wrong password.
 */
import { hash } from 'node:crypto';
import bcrypt from 'bcryptjs';
import { LruCache } from '../support/lru-cache.js';
import { parseBasicAuthorization } from './basic-credentials.js';
import { Principal } from './principal.js';
import type { ClientCredential } from './security-settings.js';
import { sha256 } from './stored-secret.js';

const BEARER = /^Bearer[ \t]+([A-Za-z0-9._~+/-]+=*)[ \t]*$/i;
/** Headers remembered: far more than a fleet's distinct credentials, and a few hundred KB at most. */
const REMEMBERED = 10_000;

interface Entry {
  readonly credential: ClientCredential;
  readonly principal: Principal;
}

export class Authenticator {
  private readonly byUsername = new Map<string, Entry>();
  private readonly withToken: Entry[] = [];
  private readonly verified = new LruCache<string, Principal>(REMEMBERED);
  private readonly inFlight = new Map<string, Promise<Principal | undefined>>();
  /** A bcrypt hash to check an unknown user's password against (one of the configured ones: same cost). */
  private readonly decoyHash: string | undefined;

  constructor(credentials: readonly ClientCredential[]) {
    for (const credential of credentials) {
      const entry = {
        credential,
        principal: new Principal(credential.name, credential.settingPrefix, credential.grants),
      };
      if (credential.username !== undefined && credential.password !== undefined)
        this.byUsername.set(credential.username, entry);
      if (credential.token !== undefined) this.withToken.push(entry);
    }
    this.decoyHash = credentials.find((c) => c.password?.encoding === 'bcrypt')?.password?.bcryptHash;
  }

  /** The principal of a header verified before, synchronously; undefined when it must be (re)checked. */
  remembered(header: string | undefined): Principal | undefined {
    if (header === undefined) return undefined;
    return this.verified.get(digestKey(header));
  }

  /** The principal the header proves, or undefined (missing, malformed or wrong credentials). */
  authenticate(header: string | undefined): Promise<Principal | undefined> {
    if (header === undefined) return Promise.resolve(undefined);
    const key = digestKey(header);
    const known = this.verified.get(key);
    if (known) return Promise.resolve(known);
    // Concurrent requests with one new header share one bcrypt round.
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = this.verify(header)
        .then((principal) => {
          if (principal) this.verified.set(key, principal);
          return principal;
        })
        .finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    return pending;
  }

  /** The user name a failed header claimed, when it names a configured user (an unknown one may be a password). */
  claimedUser(header: string | undefined): string | undefined {
    const username = parseBasicAuthorization(header)?.username;
    return username !== undefined && this.byUsername.has(username) ? username : undefined;
  }

  private async verify(header: string): Promise<Principal | undefined> {
    const bearer = BEARER.exec(header)?.[1];
    if (bearer !== undefined) return this.verifyToken(bearer);
    const basic = parseBasicAuthorization(header);
    if (basic === undefined) return undefined;
    const entry = this.byUsername.get(basic.username);
    if (entry === undefined) {
      if (this.decoyHash !== undefined) await bcrypt.compare(basic.password, this.decoyHash);
      return undefined;
    }
    return (await entry.credential.password?.matches(basic.password)) ? entry.principal : undefined;
  }

  /** Every token is compared (no early return), so the time taken does not say which one came close. */
  private verifyToken(token: string): Principal | undefined {
    const presented = sha256(token);
    let found: Principal | undefined;
    for (const entry of this.withToken) {
      if (entry.credential.token?.matchesDigest(presented) && found === undefined) found = entry.principal;
    }
    return found;
  }
}

/** crypto.hash, one shot: a fifth of createHash's cost (no Hash object), which every request pays here. */
const digestKey = (header: string): string => hash('sha256', header, 'base64');
