/**
 * Spring Security's password-based AES (`AesBytesEncryptor`, as built by `Encryptors.standard/stronger`, and
 * `Encryptors.text/delux` on top): a 256-bit key from PBKDF2WithHmacSHA1(password as UTF-8, hex-decoded salt,
 * 1024 iterations); each message gets 16 random IV bytes and is stored as IV ‖ AES/CBC/PKCS5Padding output, or
 * IV ‖ AES/GCM output ‖ 128-bit tag (Java's layout). Text encryptors hex-encode that and read text as UTF-8.
 */
import { createCipheriv, createDecipheriv, pbkdf2Sync, randomBytes } from 'node:crypto';
import { ConfbusError } from '../errors/confbus-error.js';
import { coreErrors } from '../errors.js';
import { decodeHex, decodeUtf8Strict, encodeHex } from './codecs.js';
import type { TextEncryptor } from './text-encryptor.js';

export type AesMode = 'cbc' | 'gcm';

const ITERATIONS = 1024;
const KEY_BYTES = 32;
const IV_BYTES = 16;
const TAG_BYTES = 16;

/** The derived AES key. `saltSetting` names the setting in the error when the salt is not usable. */
export function deriveAesKey(password: string, hexSalt: string, saltSetting = 'encrypt.salt'): Buffer {
  const salt = decodeHex(hexSalt);
  // Java's PBEKeySpec refuses an empty salt too.
  if (salt === undefined || salt.length === 0) {
    throw new ConfbusError(
      coreErrors.CONFBUS_ENCRYPT_BAD_KEY,
      `${saltSetting} must be a non-empty, even number of hex digits (Spring reads it with Hex.decode)`,
    );
  }
  return pbkdf2Sync(Buffer.from(password, 'utf8'), salt, ITERATIONS, KEY_BYTES, 'sha1');
}

const failed = (why: string): ConfbusError =>
  new ConfbusError(coreErrors.CONFBUS_DECRYPT_FAILED, `Text not encrypted with this key (${why})`);

export class AesBytesEncryptor {
  constructor(
    private readonly key: Buffer,
    private readonly mode: AesMode,
  ) {}

  /** `iv` is for fixed test vectors only; by default every message gets fresh random bytes. */
  encrypt(plain: Uint8Array, iv: Uint8Array = randomBytes(IV_BYTES)): Buffer {
    if (this.mode === 'gcm') {
      const cipher = createCipheriv('aes-256-gcm', this.key, iv, { authTagLength: TAG_BYTES });
      return Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
    }
    const cipher = createCipheriv('aes-256-cbc', this.key, iv);
    return Buffer.concat([iv, cipher.update(plain), cipher.final()]);
  }

  decrypt(data: Uint8Array): Buffer {
    const iv = data.subarray(0, IV_BYTES);
    try {
      if (this.mode === 'gcm') {
        if (data.length < IV_BYTES + TAG_BYTES) throw failed('too short');
        const decipher = createDecipheriv('aes-256-gcm', this.key, iv, { authTagLength: TAG_BYTES });
        decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
        return Buffer.concat([
          decipher.update(data.subarray(IV_BYTES, data.length - TAG_BYTES)),
          decipher.final(),
        ]);
      }
      if (data.length < 2 * IV_BYTES) throw failed('too short');
      const decipher = createDecipheriv('aes-256-cbc', this.key, iv);
      return Buffer.concat([decipher.update(data.subarray(IV_BYTES)), decipher.final()]);
    } catch (error) {
      if (error instanceof ConfbusError) throw error;
      // OpenSSL's own words ("bad decrypt", "unable to authenticate data") say nothing about the input.
      throw failed(this.mode === 'gcm' ? 'authentication failed' : 'bad padding');
    }
  }
}

/** `Encryptors.text(password, salt)` (CBC) or `Encryptors.delux(password, salt)` (GCM): hex cipher text. */
export class AesTextEncryptor implements TextEncryptor {
  readonly canDecrypt = true;
  private readonly bytes: AesBytesEncryptor;

  constructor(password: string, hexSalt: string, mode: AesMode = 'cbc') {
    this.bytes = new AesBytesEncryptor(deriveAesKey(password, hexSalt), mode);
  }

  encrypt(text: string): string {
    return encodeHex(this.bytes.encrypt(Buffer.from(text, 'utf8')));
  }

  decrypt(cipherText: string): string {
    const data = decodeHex(cipherText);
    if (data === undefined) throw failed('not hex');
    const text = decodeUtf8Strict(this.bytes.decrypt(data));
    if (text === undefined) throw failed('not UTF-8 after decryption');
    return text;
  }

  publicKey(): undefined {
    return undefined;
  }
}
