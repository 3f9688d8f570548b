/**
 * Webhook authenticity checks per host, as the secrets each host supports: HMAC-SHA256 of the raw body
 * (GitHub, Gitea, Gogs, Bitbucket), a shared token (GitLab), or Gitee's token / timestamp signature.
 * A host without a configured secret is accepted, like Spring's monitor without validators.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { WebhookHost } from './push-webhook.js';
import { firstHeader, hasText, type WebhookHeaders } from './webhook-headers.js';

/** The hosts a secret can be configured for: `confbus.monitor.<host>.secret` (settings and wiring read this). */
export const WEBHOOK_SECRET_HOSTS = ['github', 'gitlab', 'bitbucket', 'gitea', 'gogs', 'gitee'] as const;

export type WebhookSecrets = Partial<Record<(typeof WEBHOOK_SECRET_HOSTS)[number], string>>;

export interface WebhookSignatureInput {
  host: WebhookHost;
  headers: WebhookHeaders;
  rawBody: Buffer;
  secrets: WebhookSecrets;
  /** Clock for Gitee's timestamp window (epoch ms); defaults to now. */
  now?: number;
}

export type WebhookSignatureResult = { ok: true } | { ok: false; reason: string };

/** Gitee rejects signatures whose timestamp is further than this from our clock. */
const GITEE_MAX_SKEW_MS = 3_600_000;

const OK: WebhookSignatureResult = { ok: true };

export function verifyWebhookSignature(input: WebhookSignatureInput): WebhookSignatureResult {
  const { host, headers, rawBody, secrets } = input;
  switch (host) {
    case 'github':
      return hmacHeader(secrets.github, headers, rawBody, 'X-Hub-Signature-256', 'sha256=');
    case 'gitea':
      return hmacHeader(secrets.gitea, headers, rawBody, 'X-Gitea-Signature', '');
    case 'gogs':
      return hmacHeader(secrets.gogs, headers, rawBody, 'X-Gogs-Signature', '');
    case 'bitbucket-cloud':
    case 'bitbucket-server':
      return hmacHeader(secrets.bitbucket, headers, rawBody, 'X-Hub-Signature', 'sha256=');
    case 'gitlab':
      return token(secrets.gitlab, headers, 'X-Gitlab-Token');
    case 'gitee':
      return gitee(secrets.gitee, headers, input.now ?? Date.now());
    default:
      // form, simple and unrecognised requests carry no host signature.
      return OK;
  }
}

function hmacHeader(
  secret: string | undefined,
  headers: WebhookHeaders,
  rawBody: Buffer,
  header: string,
  prefix: string,
): WebhookSignatureResult {
  if (!hasText(secret)) return OK;
  const value = firstHeader(headers, header);
  if (!hasText(value)) return { ok: false, reason: `missing ${header} header` };
  if (!value.startsWith(prefix))
    return { ok: false, reason: `${header} header does not start with "${prefix}"` };
  const expected = createHmac('sha256', secret).update(rawBody).digest('hex');
  return constantTimeEquals(value.slice(prefix.length).toLowerCase(), expected)
    ? OK
    : { ok: false, reason: `${header} does not match the request body` };
}

function token(secret: string | undefined, headers: WebhookHeaders, header: string): WebhookSignatureResult {
  if (!hasText(secret)) return OK;
  const value = firstHeader(headers, header);
  if (!hasText(value)) return { ok: false, reason: `missing ${header} header` };
  return constantTimeEquals(value, secret)
    ? OK
    : { ok: false, reason: `${header} does not match the secret` };
}

function gitee(secret: string | undefined, headers: WebhookHeaders, now: number): WebhookSignatureResult {
  if (!hasText(secret)) return OK;
  const value = firstHeader(headers, 'X-Gitee-Token');
  if (!hasText(value)) return { ok: false, reason: 'missing X-Gitee-Token header' };
  const timestamp = firstHeader(headers, 'X-Gitee-Timestamp');
  if (!hasText(timestamp)) {
    // Password mode: the token is the secret itself.
    return constantTimeEquals(value, secret)
      ? OK
      : { ok: false, reason: 'X-Gitee-Token does not match the secret' };
  }
  const ts = /^\d+$/.test(timestamp) ? Number(timestamp) : NaN;
  if (!Number.isSafeInteger(ts)) return { ok: false, reason: 'X-Gitee-Timestamp is not epoch milliseconds' };
  if (Math.abs(now - ts) > GITEE_MAX_SKEW_MS) {
    return { ok: false, reason: 'X-Gitee-Timestamp is more than an hour away from the server clock' };
  }
  const expected = createHmac('sha256', secret).update(`${timestamp}\n${secret}`).digest('base64');
  return constantTimeEquals(value, expected)
    ? OK
    : { ok: false, reason: 'X-Gitee-Token does not match the signature of the timestamp' };
}

/** Compares digests of both sides so neither the content nor the length of the secret leaks through timing. */
function constantTimeEquals(a: string, b: string): boolean {
  const da = createHash('sha256').update(a, 'utf8').digest();
  const db = createHash('sha256').update(b, 'utf8').digest();
  return timingSafeEqual(da, db);
}
