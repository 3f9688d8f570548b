/**
 * Spring's EncryptionController:
 *   POST /encrypt[/{name}/{profiles}]   text → cipher text (behind the input's `{key:...}` prefixes; no `{cipher}`)
 *   POST /decrypt[/{name}/{profiles}]   cipher text → text (a leading `{cipher}` is accepted too; Spring refuses it)
 *   GET  /encrypt/status                {"status":"OK"} when a key is installed
 *   GET  /key[/{name}/{profiles}]       the RSA public key, `ssh-rsa ...`
 * Errors have Spring's body, `{"status":"INVALID","description":"Text not encrypted with this key"}`, plus our
 * `code`. Without a key: 404 NO_KEY naming the settings to set (Spring 4+: 404 INVALID "not strong enough",
 * or a 500). Static segments win over the environment routes' parameters, as Spring's more specific mappings
 * do: `GET /encrypt/status` and `GET /key/{name}/{profiles}` are these endpoints even for an application
 * named `encrypt` or `key`, whose other URLs (`/key/dev`, `/encrypt/dev/main`) stay environments.
 * Nothing here logs a text, a cipher text or a key.
 */
import {
  CIPHER_MARKER,
  ConfbusError,
  type CipherScope,
  DEFAULT_SCOPE,
  type Logger,
  type TextEncryptorLocator,
  coreErrors,
  decryptText,
  encryptText,
  parseApplications,
  parseProfiles,
  validateApplicationName,
  type ProfileRules,
  validateProfile,
  validateProfiles,
} from '@confbus/core';
import { locateEncryptor } from '@confbus/core/internal';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AuditedRequest } from '../audit/install-audit.js';
import { serverErrors } from '../errors.js';
import type { ReadTarget } from '../security/principal.js';
import { readRequestBody, textToDecrypt, textToEncrypt } from './request-body.js';

export interface EncryptionRoutesOptions {
  readonly locator: TextEncryptorLocator | undefined;
  readonly logger: Logger;
  /** `spring.cloud.config.server.prefix` (`''` or `/config`): Spring mounts these endpoints under it. */
  readonly prefix?: string;
  /**
   * The application and profiles handed to the key locator when the URL names none: Spring's
   * default-application-name and default-profile (default: application, default).
   */
  readonly defaultScope?: CipherScope;
  /** `spring.profiles.validate` (default true): Spring's character rules for the URL's profiles. */
  readonly validateProfiles?: boolean;
  /** Refuses (403) a caller that may not read the application `/decrypt/{name}/{profiles}` names (security). */
  readonly requireRead?: (request: FastifyRequest, target: ReadTarget) => void;
}

/** /encrypt and /decrypt are for admins; decrypting reveals a secret, so each call is audited. */
const ADMIN = { config: { access: 'admin' as const } };
const DECRYPT = {
  config: {
    access: 'admin' as const,
    audit: {
      action: 'decrypt',
      target: (request: AuditedRequest) => {
        const { name, profiles } = request.params as Partial<Params>;
        return name === undefined ? 'default key' : `${name}/${profiles ?? ''}`;
      },
    },
  },
};
/** The public key and the key's status: any authenticated caller (clients encrypt with the public key). */
const ANY_CALLER = { config: { access: 'authenticated' as const } };

/** Spring's `status` word and fixed description for each of our codes (undefined: our message). */
const SPRING_BODIES = new Map<string, { status: string; description?: string }>([
  [
    coreErrors.CONFBUS_DECRYPT_FAILED.code,
    { status: 'INVALID', description: 'Text not encrypted with this key' },
  ],
  [coreErrors.CONFBUS_ENCRYPT_NO_KEY.code, { status: 'NO_KEY' }],
  [
    coreErrors.CONFBUS_DECRYPT_NOT_SUPPORTED.code,
    { status: 'BAD_REQUEST', description: 'Server-side decryption is not supported' },
  ],
  [coreErrors.CONFBUS_NO_PUBLIC_KEY.code, { status: 'NOT_FOUND', description: 'No public key available' }],
  [coreErrors.CONFBUS_ENCRYPT_KEY_NOT_FOUND.code, { status: 'BAD_REQUEST' }],
  [coreErrors.CONFBUS_ENCRYPT_BAD_KEY.code, { status: 'BAD_REQUEST' }],
]);

type Params = { name: string; profiles: string };

export function registerEncryptionRoutes(app: FastifyInstance, options: EncryptionRoutesOptions): void {
  const { locator, logger } = options;
  const scopeOf = (request: FastifyRequest): CipherScope => {
    const params = request.params as Partial<Params>;
    if (params.name === undefined) return options.defaultScope ?? DEFAULT_SCOPE;
    return validatedScope(params.name, params.profiles ?? '', {
      springRules: options.validateProfiles ?? true,
    });
  };

  // Encapsulated: these routes read every body as bytes, whatever its type, without touching other routes.
  app.register(
    async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

      const encrypt = (request: FastifyRequest, reply: FastifyReply) =>
        answer(reply, () => {
          const text = textToEncrypt(readBody(request));
          const cipherText = encryptText(locator, scopeOf(request), text);
          logger.info({ route: request.routeOptions.url }, 'Encrypted data');
          return cipherText;
        });
      const decrypt = (request: FastifyRequest, reply: FastifyReply) => {
        // The key of another application's scope is not the caller's to use: 403 before the body is read.
        const scope = request.params as Partial<Params>;
        if (scope.name !== undefined)
          options.requireRead?.(request, {
            applications: parseApplications(scope.name),
            profiles: parseProfiles(scope.profiles ?? ''),
            label: null,
          });
        return answer(reply, () => {
          let text = textToDecrypt(readBody(request));
          if (text.startsWith(CIPHER_MARKER)) text = text.slice(CIPHER_MARKER.length);
          const plain = decryptText(locator, scopeOf(request), text);
          logger.info({ route: request.routeOptions.url }, 'Decrypted cipher data');
          return plain;
        });
      };
      const publicKey = (request: FastifyRequest, reply: FastifyReply) =>
        answer(reply, () => {
          const key = locateEncryptor(locator, scopeOf(request), '').encryptor.publicKey();
          if (key === undefined) {
            throw new ConfbusError(
              coreErrors.CONFBUS_NO_PUBLIC_KEY,
              'The key is symmetric: there is no public key',
            );
          }
          return key;
        });

      scope.post('/encrypt', ADMIN, encrypt);
      scope.post<{ Params: Params }>('/encrypt/:name/:profiles', ADMIN, encrypt);
      scope.post('/decrypt', DECRYPT, decrypt);
      scope.post<{ Params: Params }>('/decrypt/:name/:profiles', DECRYPT, decrypt);
      scope.get('/key', ANY_CALLER, publicKey);
      scope.get<{ Params: Params }>('/key/:name/:profiles', ANY_CALLER, publicKey);
      scope.get('/encrypt/status', ANY_CALLER, (_request, reply) => {
        try {
          locateEncryptor(locator, options.defaultScope ?? DEFAULT_SCOPE, '');
        } catch (error) {
          return sendSpringError(reply, error);
        }
        return reply.send({ status: 'OK' });
      });
    },
    { prefix: options.prefix ?? '' },
  );
}

function readBody(request: FastifyRequest): ReturnType<typeof readRequestBody> {
  const raw = request.body;
  if (!Buffer.isBuffer(raw) || raw.length === 0) {
    throw new ConfbusError(serverErrors.CONFBUS_EMPTY_BODY, 'Required request body is missing');
  }
  return readRequestBody(raw, request.headers['content-type']);
}

/** Runs `produce` and answers its text as text/plain, or Spring's body for an encryption error. */
function answer(reply: FastifyReply, produce: () => string): FastifyReply {
  let text: string;
  try {
    text = produce();
  } catch (error) {
    return sendSpringError(reply, error);
  }
  return reply.type('text/plain; charset=utf-8').send(text);
}

function sendSpringError(reply: FastifyReply, error: unknown): FastifyReply {
  const spring = error instanceof ConfbusError ? SPRING_BODIES.get(error.code) : undefined;
  if (!(error instanceof ConfbusError) || spring === undefined) throw error;
  return reply
    .code(error.status)
    .send({ status: spring.status, description: spring.description ?? error.message, code: error.code });
}

/** Spring answers an invalid name or profiles with 400 "Invalid request" before looking for a key. */
function validatedScope(name: string, profilesText: string, rules: ProfileRules): CipherScope {
  const problem =
    validateApplicationName(name) ??
    (rules.springRules && profilesText !== ''
      ? validateProfile(profilesText, rules)
      : validateProfiles(parseProfiles(profilesText), rules));
  if (problem !== undefined) throw new ConfbusError(serverErrors.CONFBUS_INVALID_REQUEST, problem);
  return { name, profiles: profilesText };
}
