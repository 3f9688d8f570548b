/**
 * A configured password or token, as Spring Security's DelegatingPasswordEncoder writes one: `{bcrypt}$2a$10$…`
 * (checked with bcryptjs: maintained, plain JavaScript, no native build) or `{noop}text`. A value with no `{id}`
 * prefix is the text itself, as Spring Boot treats `spring.security.user.password`. Tokens may also be given as
 * `{sha256}<hex>` (a token is long and random, so a fast digest is enough and the settings file need not hold it).
 * Plain values are kept as SHA-256 digests only and compared with timingSafeEqual: the response time tells neither
 * where a guess first differs nor how long the secret is.
 */
import { hash, timingSafeEqual } from 'node:crypto';
import bcrypt from 'bcryptjs';

export type SecretEncoding = 'bcrypt' | 'noop' | 'sha256';

const PREFIX = /^\{([^}]*)\}/;
const BCRYPT_HASH = /^\$2[aby]?\$\d{2}\$[./A-Za-z0-9]{53}$/;
const SHA256_HEX = /^[0-9a-f]{64}$/i;

export const sha256 = (text: string): Buffer => hash('sha256', text, 'buffer');

export class StoredSecret {
  private constructor(
    readonly encoding: SecretEncoding,
    /** A bcrypt hash, or the SHA-256 digest of the plain value. */
    private readonly stored: string | Buffer,
  ) {}

  /**
   * Reads a configured value; returns a problem (never quoting the value) when it cannot be used.
   * `allowed` names the encodings this kind of secret may use.
   */
  static parse(
    value: string,
    allowed: readonly SecretEncoding[],
  ): { secret: StoredSecret } | { problem: string } {
    const prefix = PREFIX.exec(value);
    const id = prefix?.[1] ?? 'noop';
    const rest = prefix ? value.slice(prefix[0].length) : value;
    if (!(allowed as readonly string[]).includes(id))
      return {
        problem: `the {${id}} encoding is not supported here (use ${allowed.map((e) => `{${e}}`).join(', ')})`,
      };
    if (id === 'bcrypt') {
      if (!BCRYPT_HASH.test(rest)) return { problem: 'the {bcrypt} value is not a bcrypt hash ($2a$…)' };
      return { secret: new StoredSecret('bcrypt', rest) };
    }
    if (id === 'sha256') {
      if (!SHA256_HEX.test(rest)) return { problem: 'the {sha256} value is not 64 hex digits' };
      return { secret: new StoredSecret('sha256', Buffer.from(rest, 'hex')) };
    }
    if (rest === '') return { problem: 'it is empty' };
    return { secret: new StoredSecret('noop', sha256(rest)) };
  }

  /** Whether `presented` is this secret. bcrypt runs off the event loop's hot path (async, ~cost-factor ms). */
  async matches(presented: string): Promise<boolean> {
    if (typeof this.stored === 'string') return bcrypt.compare(presented, this.stored);
    return timingSafeEqual(this.stored, sha256(presented));
  }

  /** The same check for a presented digest, without hashing again (plain and sha256 values only). */
  matchesDigest(presented: Buffer): boolean {
    return typeof this.stored !== 'string' && timingSafeEqual(this.stored, presented);
  }

  /** The bcrypt hash, for checking an unknown user's password at the same cost; undefined for other encodings. */
  get bcryptHash(): string | undefined {
    return typeof this.stored === 'string' ? this.stored : undefined;
  }

  /** Keeps the hash out of logs and JSON should this object ever be serialised. */
  toJSON(): string {
    return `[StoredSecret ${this.encoding}]`;
  }
}
