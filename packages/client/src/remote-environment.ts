/**
 * Fetching one environment from a config server: Spring's URL layout, Basic auth, timeouts, and
 * reading the JSON (v1 plain values or v2 `{value, origin}` descriptors) into a typed model.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { ConfbusError, maskUriUserInfo, type FlatProperties, type PropertyValue } from '@confbus/core';
import { ConfigClientError, clientErrors } from './errors.js';

export interface RemotePropertySource {
  readonly name: string;
  readonly source: FlatProperties;
}

/** Spring's environment as the server sent it; propertySources[0] has the highest precedence. */
export interface RemoteEnvironment {
  readonly name: string;
  readonly profiles: readonly string[];
  readonly label: string | null;
  readonly version: string | null;
  readonly state: string | null;
  readonly propertySources: readonly RemotePropertySource[];
}

export interface FetchRequest {
  readonly uri: string;
  readonly name: string;
  readonly profiles: readonly string[];
  readonly label: string | undefined;
  readonly username: string | undefined;
  readonly password: string | undefined;
  readonly connectTimeout: number;
  readonly readTimeout: number;
}

/** The URL to fetch, and the Basic credentials to send (explicit settings win over URI userinfo). */
export function environmentUrl(req: FetchRequest): { url: URL; authorization: string | undefined } {
  let url: URL;
  try {
    url = new URL(req.uri);
  } catch {
    throw new ConfigClientError(
      'CONFBUS_CONFIG_FETCH',
      `Config server URI '${maskUriUserInfo(req.uri)}' is not a valid URL`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigClientError(
      'CONFBUS_CONFIG_FETCH',
      `Config server URI '${maskUriUserInfo(req.uri)}' must use http or https`,
    );
  }
  const userInfoUser = url.username ? decodeURIComponent(url.username) : undefined;
  const userInfoPassword = url.password ? decodeURIComponent(url.password) : undefined;
  url.username = '';
  url.password = '';
  const username = req.password !== undefined ? (req.username ?? 'user') : (userInfoUser ?? req.username);
  const password = req.password ?? userInfoPassword;
  const authorization =
    username !== undefined && password !== undefined
      ? `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`
      : undefined;

  const segments = [encodeURIComponent(req.name), encodeURIComponent(req.profiles.join(','))];
  // Spring's client writes `/` in a label as `(_)` so it stays one path segment.
  if (req.label !== undefined) segments.push(encodeURIComponent(req.label.replaceAll('/', '(_)')));
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/${segments.join('/')}`;
  url.search = '';
  url.hash = '';
  return { url, authorization };
}

/** One GET of the environment; rejects with a ConfigClientError whose message is the reason. */
export async function fetchEnvironment(req: FetchRequest): Promise<RemoteEnvironment> {
  const { url, authorization } = environmentUrl(req);
  const shown = maskUriUserInfo(req.uri);
  const { status, body } = await get(url, authorization, req.connectTimeout, req.readTimeout).catch(
    (error: unknown) => {
      throw new ConfigClientError(
        'CONFBUS_CONFIG_FETCH',
        `GET ${url.href} failed: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    },
  );
  if (status !== 200) {
    throw new ConfigClientError(
      'CONFBUS_CONFIG_FETCH',
      `GET ${url.href} answered ${status}${status === 401 || status === 403 ? ' (check spring.cloud.config.username/password)' : ''}${status === 404 && req.label !== undefined ? ` (label '${req.label}' not found?)` : ''}${serverMessage(body)}`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new ConfigClientError('CONFBUS_CONFIG_FETCH', `Config server ${shown} did not answer JSON`);
  }
  return parseEnvironment(json, shown);
}

export function parseEnvironment(json: unknown, from: string): RemoteEnvironment {
  const bad = (what: string) =>
    new ConfigClientError(
      'CONFBUS_CONFIG_FETCH',
      `Config server ${from} sent an invalid environment: ${what}`,
    );
  if (!isRecord(json)) throw bad('not a JSON object');
  if (!Array.isArray(json.propertySources)) throw bad("'propertySources' is not an array");
  const propertySources = json.propertySources.map((entry: unknown, index): RemotePropertySource => {
    if (!isRecord(entry)) throw bad(`propertySources[${index}] is not an object`);
    const source: FlatProperties = {};
    const raw = entry.source ?? {};
    if (!isRecord(raw)) throw bad(`propertySources[${index}].source is not an object`);
    for (const [key, value] of Object.entries(raw)) {
      const plain = toPropertyValue(isRecord(value) && 'value' in value ? value.value : value);
      if (plain !== undefined) source[key] = plain;
    }
    return { name: typeof entry.name === 'string' ? entry.name : `source-${index}`, source };
  });
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  return {
    name: typeof json.name === 'string' ? json.name : '',
    profiles: Array.isArray(json.profiles) ? json.profiles.map(String) : [],
    label: text(json.label),
    version: text(json.version),
    state: text(json.state),
    propertySources,
  };
}

function toPropertyValue(value: unknown): PropertyValue | undefined {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (value === null) return '';
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const MAX_BODY_BYTES = 64 * 1024 * 1024;

// Kept-alive connections: after a bus event a whole fleet re-fetches at once, and a TCP handshake per fetch
// showed in the 200-instance profile. Idle sockets are closed after 30 s (the server keeps them 72 s).
const httpAgent = new HttpAgent({ keepAlive: true, keepAliveMsecs: 30_000, timeout: 30_000 });
const httpsAgent = new HttpsAgent({ keepAlive: true, keepAliveMsecs: 30_000, timeout: 30_000 });

/**
 * node:http rather than fetch: Spring has separate connect and read timeouts, and fetch cannot
 * tell a slow connect from a slow body. A request that fails on a reused keep-alive socket (the server
 * closed it, e.g. after a restart) is sent once more on a fresh connection.
 */
async function get(
  url: URL,
  authorization: string | undefined,
  connectTimeout: number,
  readTimeout: number,
): Promise<{ status: number; body: string }> {
  try {
    return await getOnce(url, authorization, connectTimeout, readTimeout);
  } catch (error) {
    if (!(error instanceof ReusedSocketError)) throw error;
    return getOnce(url, authorization, connectTimeout, readTimeout);
  }
}

/**
 * Private to this module: marks a failure on a reused keep-alive socket, so get() tries once more. Carries the
 * fetch code it would be reported with if it ever escaped.
 */
class ReusedSocketError extends ConfbusError<'CONFBUS_CONFIG_FETCH'> {
  constructor(message: string, options: { cause: unknown }) {
    super(clientErrors.CONFBUS_CONFIG_FETCH, message, options);
  }
}

function getOnce(
  url: URL,
  authorization: string | undefined,
  connectTimeout: number,
  readTimeout: number,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (authorization) headers.authorization = authorization;
    const https = url.protocol === 'https:';
    const send = https ? httpsRequest : httpRequest;
    const agent = https ? httpsAgent : httpAgent;
    const req = send(url, { method: 'GET', headers, agent }, (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_BODY_BYTES) req.destroy(new Error('response larger than 64 MiB'));
        else chunks.push(chunk);
      });
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', reject);
    });
    const connectTimer = setTimeout(
      () => req.destroy(new Error(`connect timed out after ${connectTimeout} ms`)),
      connectTimeout,
    );
    req.on('socket', (socket) => {
      if (!socket.connecting) clearTimeout(connectTimer);
      else socket.once('connect', () => clearTimeout(connectTimer));
    });
    req.setTimeout(readTimeout, () => req.destroy(new Error(`read timed out after ${readTimeout} ms`)));
    req.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(connectTimer);
      const staleSocket = req.reusedSocket && (error.code === 'ECONNRESET' || error.code === 'EPIPE');
      reject(staleSocket ? new ReusedSocketError(error.message, { cause: error }) : error);
    });
    req.on('close', () => clearTimeout(connectTimer));
    req.end();
  });
}

/** The `message` of a Spring-style error body (`{status, error, message, path}`), so the cause reaches the logs. */
function serverMessage(body: string): string {
  try {
    const parsed = JSON.parse(body) as { message?: unknown };
    if (typeof parsed.message === 'string' && parsed.message.trim() !== '') {
      return `: ${maskUriUserInfo(parsed.message.trim().slice(0, 500))}`;
    }
  } catch {
    // Not JSON (a proxy's HTML page, say): the status alone has to do.
  }
  return '';
}
