// The refs of an http(s) upstream, read from Node over a kept-alive connection instead of spawning
// `git ls-remote` (a fork and exec of git, then git's own TLS handshake and request, for every check): the smart
// HTTP protocol's `GET <repo>/info/refs?service=git-upload-pack` answers with the ref advertisement
// (https://git-scm.com/docs/http-protocol). Anything this reader does not handle exactly as git would — a
// redirect, a login prompt, a dumb HTTP server, a TLS failure — is left to git, whose messages operators know.
import {
  type ClientRequest,
  Agent as HttpAgent,
  request as httpRequest,
  type IncomingMessage,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { GitCommandError } from './errors.js';
import { readAdvertisement, readServiceHeader } from './ref-advertisement.js';
import { IdleDeadline } from './upstream-deadline.js';

const ADVERTISEMENT_TYPE = 'application/x-git-upload-pack-advertisement';

export interface HttpRefsOptions {
  /** For messages: the uri without credentials. */
  safeUri: string;
  /** The `Authorization` header value git would send (basic auth from the settings or the uri). */
  authorization: string | undefined;
  /** skip-ssl-validation. */
  skipSslValidation: boolean;
  /** Certificate authorities to trust instead of Node's (GIT_SSL_CAINFO's file, which git trusts). */
  ca?: Buffer | undefined;
}

export interface HttpRefsRequest {
  /** No byte from the server for this long: the request is dropped, naming `idleTimeoutHint`. */
  idleTimeoutMs: number;
  idleTimeoutHint: string;
  /** Aborted when the mirror closes (the kept-alive connection goes with it). */
  signal: AbortSignal;
}

/** The info/refs URL of an http(s) uri without credentials; undefined when git should handle it. */
export function smartHttpRefsUrl(uri: string): URL | undefined {
  if (!/^https?:\/\//i.test(uri)) return undefined;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return undefined;
  }
  // Query strings, fragments and credentials in the uri are git's to interpret.
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') return undefined;
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/info/refs`;
  url.search = '?service=git-upload-pack';
  return url;
}

/** One upstream's refs over smart HTTP, on one kept-alive connection reused by every check. */
export class SmartHttpRefs {
  private readonly agent: HttpAgent | HttpsAgent;
  private readonly send: typeof httpRequest;

  constructor(
    private readonly url: URL,
    private readonly options: HttpRefsOptions,
  ) {
    const https = url.protocol === 'https:';
    const agentOptions = { keepAlive: true, maxSockets: 1 };
    this.agent = https
      ? new HttpsAgent({
          ...agentOptions,
          rejectUnauthorized: !options.skipSslValidation,
          ...(options.ca === undefined ? {} : { ca: options.ca }),
        })
      : new HttpAgent(agentOptions);
    this.send = https ? httpsRequest : httpRequest;
  }

  /** Branches and tags (full ref name -> object id), as `git ls-remote --heads --tags --refs` lists them. */
  read({ idleTimeoutMs, idleTimeoutHint, signal }: HttpRefsRequest): Promise<Map<string, string>> {
    const what = `git ls-remote ${this.options.safeUri}`;
    return new Promise((resolve, reject) => {
      if (signal.aborted) {
        this.agent.destroy();
        reject(new Error('GitMirror is closed'));
        return;
      }
      const req = this.request();
      let settled = false;
      const finish = (error?: Error, refs?: Map<string, string>) => {
        if (settled) return;
        settled = true;
        deadline.stop();
        signal.removeEventListener('abort', aborted);
        if (error) {
          req.destroy();
          reject(error);
        } else resolve(refs ?? new Map());
      };
      const stepAside = (reason: string) =>
        finish(new GitCommandError(`${what} failed: ${reason}`, null, false));
      const aborted = () => {
        this.agent.destroy();
        finish(new Error('GitMirror is closed'));
      };
      signal.addEventListener('abort', aborted);
      const deadline = new IdleDeadline({ idleTimeoutMs, idleTimeoutHint }, (reason) =>
        finish(new GitCommandError(`${what} ${reason}`, null, true)),
      );
      req.on('error', (error) => stepAside(error.message));
      req.on('response', (res: IncomingMessage) => {
        deadline.activity();
        res.on('data', () => deadline.activity());
        readRefsAnswer(res, (refs) => finish(undefined, refs), stepAside);
      });
      req.end();
    });
  }

  /** The info/refs request, with the headers git sends. */
  private request(): ClientRequest {
    return this.send(this.url, {
      agent: this.agent,
      headers: {
        // As git sends them: no cached answer, and an agent that smart-HTTP servers recognise as git's.
        'user-agent': 'git/confbus',
        accept: '*/*',
        pragma: 'no-cache',
        'cache-control': 'no-cache',
        ...(this.options.authorization === undefined ? {} : { authorization: this.options.authorization }),
      },
    });
  }
}

/**
 * Reads the answer to info/refs into `done`, or hands a reason to `stepAside` when it is not a complete ref
 * advertisement (then git reads the refs instead).
 */
function readRefsAnswer(
  res: IncomingMessage,
  done: (refs: Map<string, string>) => void,
  stepAside: (reason: string) => void,
): void {
  if (res.statusCode !== 200 || res.headers['content-type'] !== ADVERTISEMENT_TYPE) {
    res.resume();
    stepAside(`HTTP ${res.statusCode} ${res.headers['content-type'] ?? ''}`.trim());
    return;
  }
  const body = new AdvertisementBody();
  res.on('data', (chunk: Buffer) => {
    try {
      body.add(chunk);
    } catch (error) {
      stepAside((error as Error).message);
    }
  });
  // The body ends with the advertisement's flush; only then is the connection free for the next check.
  res.on('end', () => (body.complete ? done(body.refs) : stepAside('the answer ended early')));
  res.on('error', (error) => stepAside(error.message));
}

/** A ref advertisement read as its chunks arrive: the service header, then the refs up to the flush. */
class AdvertisementBody {
  readonly refs = new Map<string, string>();
  /** The flush was read: the refs are all there. */
  complete = false;
  private buffer: Buffer = Buffer.alloc(0);
  private headerRead = false;

  /** Reads what `chunk` completes; throws when the advertisement is malformed. */
  add(chunk: Buffer): void {
    if (this.complete) return;
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    if (!this.headerRead) {
      const consumed = readServiceHeader(this.buffer);
      if (consumed === 0) return;
      this.headerRead = true;
      this.buffer = this.buffer.subarray(consumed);
    }
    const consumed = readAdvertisement(this.buffer, this.refs);
    if (consumed === 'done') this.complete = true;
    else this.buffer = this.buffer.subarray(consumed);
  }
}
