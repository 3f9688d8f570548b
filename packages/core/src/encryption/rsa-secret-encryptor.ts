/**
 * Spring Security's `RsaSecretEncryptor` (spring-security-crypto 6.3+, before that spring-security-rsa):
 * each message gets 16 random bytes; their lower-case hex is the password of an AES encryptor (CBC, or GCM
 * when "strong") with the given salt, and the bytes themselves are RSA-encrypted with the public key.
 * Cipher text = base64( length of the RSA block (2 bytes, big-endian) ‖ RSA block ‖ AES output ).
 */
import { constants, privateDecrypt, publicEncrypt, randomBytes } from 'node:crypto';
import { ConfbusError } from '../errors/confbus-error.js';
import { coreErrors } from '../errors.js';
import { AesBytesEncryptor, deriveAesKey } from './aes-encryptor.js';
import { decodeBase64, encodeHex, isHex } from './codecs.js';
import { type RsaKeyPair, rsaDecryptPkcs1, sshRsaPublicKey } from './rsa-keys.js';
import type { TextEncryptor } from './text-encryptor.js';

/** Spring's `RsaAlgorithm`: DEFAULT is Java's "RSA" (PKCS#1 v1.5 padding), OAEP is OAEP with SHA-1 and MGF1-SHA-1. */
export type RsaAlgorithm = 'DEFAULT' | 'OAEP';

export interface RsaSecretOptions {
  readonly algorithm: RsaAlgorithm;
  /** Hex, or any text (then its UTF-8 bytes are the salt), as in Spring. */
  readonly salt: string;
  /** AES/GCM instead of AES/CBC for the message itself (`encrypt.rsa.strong`). */
  readonly strong: boolean;
}

export const RSA_DEFAULTS: RsaSecretOptions = { algorithm: 'DEFAULT', salt: 'deadbeef', strong: false };

const SECRET_BYTES = 16;

const failed = (why: string): ConfbusError =>
  new ConfbusError(coreErrors.CONFBUS_DECRYPT_FAILED, `Text not encrypted with this key (${why})`);

export class RsaSecretEncryptor implements TextEncryptor {
  private readonly hexSalt: string;

  constructor(
    private readonly keys: RsaKeyPair,
    private readonly options: RsaSecretOptions = RSA_DEFAULTS,
  ) {
    this.hexSalt = isHex(options.salt) ? options.salt : encodeHex(Buffer.from(options.salt, 'utf8'));
    if (this.hexSalt === '') {
      throw new ConfbusError(coreErrors.CONFBUS_ENCRYPT_BAD_KEY, 'encrypt.rsa.salt must not be empty');
    }
  }

  get canDecrypt(): boolean {
    return this.keys.privateKey !== undefined;
  }

  publicKey(): string {
    return sshRsaPublicKey(this.keys.publicKey);
  }

  encrypt(text: string): string {
    const random = randomBytes(SECRET_BYTES);
    const block = publicEncrypt({ key: this.keys.publicKey, ...this.padding() }, random);
    const length = Buffer.alloc(2);
    length.writeUInt16BE(block.length & 0xffff);
    const body = this.aes(random).encrypt(Buffer.from(text, 'utf8'));
    return Buffer.concat([length, block, body]).toString('base64');
  }

  decrypt(cipherText: string): string {
    const privateKey = this.keys.privateKey;
    if (privateKey === undefined) {
      throw new ConfbusError(
        coreErrors.CONFBUS_DECRYPT_NOT_SUPPORTED,
        'Server-side decryption is not supported: the key store entry holds a certificate (public key) only',
      );
    }
    const data = decodeBase64(cipherText);
    if (data === undefined || data.length < 2) throw failed('not base64');
    const blockLength = data.readUInt16BE(0);
    if (data.length < 2 + blockLength) throw failed('cut short');
    const block = data.subarray(2, 2 + blockLength);
    let random: Buffer | undefined;
    if (this.options.algorithm === 'OAEP') {
      try {
        random = privateDecrypt({ key: privateKey, ...this.padding() }, block);
      } catch {
        random = undefined;
      }
    } else {
      random = rsaDecryptPkcs1(privateKey, block);
    }
    if (random === undefined) throw failed('RSA block does not decrypt');
    // Java's new String(bytes, UTF-8) substitutes malformed input rather than failing; so does toString().
    return this.aes(random)
      .decrypt(data.subarray(2 + blockLength))
      .toString('utf8');
  }

  private padding(): { padding: number; oaepHash?: string } {
    return this.options.algorithm === 'OAEP'
      ? { padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha1' }
      : { padding: constants.RSA_PKCS1_PADDING };
  }

  private aes(random: Buffer): AesBytesEncryptor {
    const key = deriveAesKey(encodeHex(random), this.hexSalt, 'encrypt.rsa.salt');
    return new AesBytesEncryptor(key, this.options.strong ? 'gcm' : 'cbc');
  }
}
