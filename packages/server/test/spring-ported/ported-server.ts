/**
 * The fixture of the ported Spring server tests: a Git remote holding the files a Spring test's mocked repository
 * or resource folder held, and a confbus server on it, asked over HTTP as Spring's MockMvc tests ask the
 * controller. Each test file builds its files here (never Spring's own test resources).
 */
import assert from 'node:assert/strict';
import { get as httpGet } from 'node:http';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { type TestServer, startGitTestServer } from '../git-server-harness.js';

export interface PortedServer {
  readonly remote: GitRemote;
  readonly server: TestServer;
  /** GET, the path sent as written (fetch would resolve `%2e%2e` segments first); the body as text. */
  get(path: string, accept?: string): Promise<{ status: number; body: string; headers: Headers }>;
  /** POST `body` as text/plain; the body as text. */
  post(path: string, body: string): Promise<{ status: number; body: string }>;
  /** The environment JSON of a 200 answer (fails the test on another status). */
  environment(path: string, accept?: string): Promise<EnvironmentJson>;
  stop(): Promise<void>;
}

export interface EnvironmentJson {
  name: string;
  profiles: string[];
  label: string | null;
  version: string | null;
  propertySources: { name: string; source: Record<string, unknown> }[];
}

export const V2 = 'application/vnd.spring-cloud.config-server.v2+json';

/** ConfigServerTestUtils.assertConfigEnabled: the overrides first, the value `{value: "true"}` with its origin (v2). */
export function assertConfigEnabled(environment: Pick<EnvironmentJson, 'propertySources'>): void {
  const [first] = environment.propertySources;
  assert.equal(first?.name, 'overrides');
  assert.deepEqual(first?.source['spring.cloud.config.enabled'], {
    value: 'true',
    origin: 'Config server overrides',
  });
}

/** A remote with `files` on master (`branches`: more branches, their files each) and a server on it. */
export async function startPortedServer(
  files: Record<string, string>,
  settings: Record<string, string> = {},
  branches: Record<string, Record<string, string>> = {},
): Promise<PortedServer> {
  const remote = await createGitRemote();
  try {
    await remote.commit(files);
    for (const [branch, branchFiles] of Object.entries(branches))
      await remote.commit(branchFiles, { branch });
    const server = await startGitTestServer({
      'spring.cloud.config.server.git.uri': remote.url,
      ...settings,
    });
    return portedServerOn(remote, server);
  } catch (error) {
    await remote.remove();
    throw error;
  }
}

/** node:http sends the path as it is, as Spring's MockMvc tests hand it to the controller. */
export function rawGet(
  base: string,
  path: string,
  accept?: string,
): Promise<{ status: number; body: string; headers: Headers }> {
  return new Promise((resolve, reject) => {
    // Host and path apart: a URL string would go through WHATWG URL parsing, which resolves `%2e%2e` too.
    const { hostname, port } = new URL(base);
    const options = { hostname, port, path, headers: accept ? { accept } : {} };
    const request = httpGet(options, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const headers = new Headers();
        for (const [name, value] of Object.entries(response.headers))
          if (typeof value === 'string') headers.set(name, value);
        resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), headers });
      });
    });
    request.on('error', reject);
  });
}

function portedServerOn(remote: GitRemote, server: TestServer): PortedServer {
  const get = (path: string, accept?: string) => rawGet(server.base, path, accept);
  return {
    remote,
    server,
    get,
    async post(path, body) {
      const response = await fetch(`${server.base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body,
      });
      return { status: response.status, body: await response.text() };
    },
    async environment(path, accept) {
      const response = await get(path, accept);
      if (response.status !== 200) throw new Error(`GET ${path}: ${response.status} ${response.body}`);
      return JSON.parse(response.body) as EnvironmentJson;
    },
    async stop() {
      await server.stop();
      await remote.remove();
    },
  };
}
