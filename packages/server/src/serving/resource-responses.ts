/**
 * Answers `GET /{name}/{profile}/{label}/{path}` and `GET /{name}/{profile}/{path}?useDefaultLabel`: the file as
 * text with `${...}` resolved from the application's environment (`?resolvePlaceholders=false` to skip), or its
 * raw bytes for `Accept: application/octet-stream`, as Spring's ResourceController does; `{cipher}` values
 * decrypted in text answers when plain-text-encrypt is on (plain-text-decryption.ts).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ConfbusError } from '@confbus/core';
import { serverErrors } from '../errors.js';
import { revisionHeaders } from '../environment/environment-response.js';
import type { FoundEnvironment } from '../environment/environment-finder.js';
import type { EnvironmentRequest, EnvironmentService } from '../environment/environment-service.js';
import type { PlainTextDecryptor } from './plain-text-decryption.js';
import { findResource, validateResourcePath } from './plain-text-resources.js';

/** Finds the environment in the repository that serves the request and hands over that repository's service. */
export interface ResourceSource {
  serve<T>(
    request: EnvironmentRequest,
    use: (served: { environments: EnvironmentService }, found: FoundEnvironment) => Promise<T>,
  ): Promise<T>;
}

export interface ResourceOptions {
  /** Decrypts `{cipher}` values (undefined: plain-text-encrypt is off). */
  readonly decrypt?: PlainTextDecryptor | undefined;
  /** `spring.cloud.config.server.reverse-location-order`: search the locations last first. */
  readonly reverseLocationOrder?: boolean;
}

export async function sendResource(
  source: ResourceSource,
  request: FastifyRequest,
  reply: FastifyReply,
  parsed: EnvironmentRequest,
  rawPathSegments: readonly string[],
  options: ResourceOptions = {},
): Promise<Buffer | string> {
  const { decrypt } = options;
  const path = validateResourcePath(rawPathSegments);
  const binary = (request.headers.accept ?? '').includes('application/octet-stream');
  const query = request.query as Record<string, string | undefined>;
  const resolve = query.resolvePlaceholders !== 'false';
  return source.serve(parsed, async ({ environments }, found) => {
    const resource = await findResource(environments, found, parsed, path, options.reverseLocationOrder);
    reply.headers(revisionHeaders(found.revision));
    if (binary) {
      reply.type('application/octet-stream');
      return resource.bytes;
    }
    reply.type('text/plain; charset=utf-8');
    const raw = resource.bytes.toString('utf8');
    const text = resolve ? found.resolved.resolveText(raw, resource.path) : raw;
    // After placeholders, as Spring's ResourceController does.
    return decrypt
      ? decrypt(text, resource.path, { name: parsed.name, profiles: parsed.profilesText })
      : text;
  });
}

/** The raw (still percent-encoded) path segments after the first `skip` ones, without the query string. */
export function rawSegmentsAfter(url: string, skip: number): string[] {
  const path = url.split('?', 1)[0] ?? '';
  return path.split('/').slice(1 + skip);
}

/** One percent-encoded URL segment, decoded (fastify decodes `*` as a whole, which would hide `%2F`). */
export function decodeSegment(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new ConfbusError(serverErrors.CONFBUS_INVALID_LABEL, 'The label is not valid percent-encoding');
  }
}
