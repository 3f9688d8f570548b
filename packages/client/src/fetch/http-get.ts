/**
 * One GET over node:http(s) with Spring's separate connect and read timeouts — fetch cannot tell a slow
 * connect from a slow body — on the caller's kept-alive agents. Failures are Node's errors and the timeouts'
 * plain ones below: EnvironmentSource reports each as CONFBUS_CONFIG_FETCH, naming the URI.
 */
import {
  type Agent as HttpAgent,
  type IncomingHttpHeaders,
  request as httpRequest,
  type IncomingMessage,
} from 'node:http';
import { type Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { ConfbusError } from '@confbus/core';
import { clientErrors } from '../errors.js';

const MAX_BODY_BYTES = 64 * 1024 * 1024;

export interface GetOptions {
  /** Request headers (accept, authorization, …). */
  readonly headers: Readonly<Record<string, string>>;
  readonly connectTimeout: number;
  readonly readTimeout: number;
  readonly agents: { readonly http: HttpAgent; readonly https: HttpsAgent };
}

/**
 * A request that fails on a reused keep-alive socket (the server closed it, e.g. after a restart) is sent
 * once more on a fresh connection.
 */
export interface GetAnswer {
  readonly status: number;
  readonly body: string;
  readonly headers: IncomingHttpHeaders;
}

export async function httpGet(url: URL, options: GetOptions): Promise<GetAnswer> {
  try {
    return await getOnce(url, options);
  } catch (error) {
    if (!(error instanceof ReusedSocketError)) throw error;
    return getOnce(url, options);
  }
}

/**
 * Private to this module: marks a failure on a reused keep-alive socket, so httpGet() tries once more. Carries
 * the fetch code it would be reported with if it ever escaped.
 */
class ReusedSocketError extends ConfbusError<'CONFBUS_CONFIG_FETCH'> {
  override readonly name = 'ReusedSocketError';
  constructor(message: string, options: { cause: unknown }) {
    super(clientErrors.CONFBUS_CONFIG_FETCH, message, options);
  }
}

function getOnce(url: URL, options: GetOptions): Promise<GetAnswer> {
  const { headers, connectTimeout, readTimeout } = options;
  return new Promise((resolve, reject) => {
    const https = url.protocol === 'https:';
    const send = https ? httpsRequest : httpRequest;
    const agent = https ? options.agents.https : options.agents.http;
    const req = send(url, { method: 'GET', headers, agent }, (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_BODY_BYTES) req.destroy(new Error('response larger than 64 MiB'));
        else chunks.push(chunk);
      });
      res.on('end', () => {
        // A small answer arrives in one chunk: decode it in place rather than copy it first.
        const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, body: bytes.toString('utf8'), headers: res.headers });
      });
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
