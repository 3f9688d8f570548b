/**
 * Every kind of answer a running `confbus server` gives about one application, fetched so a test can search
 * them all (headers included) for secrets: the environment in each format, and everything else — actuator
 * endpoints, the encryption endpoints, the console API and error bodies. Only the environment answers may
 * carry a decrypted value; nothing may carry key material.
 */

export interface Answer {
  /** `GET /path` or `POST /path`, for failure messages. */
  readonly request: string;
  readonly status: number;
  /** Status line, headers and body. */
  readonly text: string;
}

export interface ServerAnswers {
  /** The application's configuration (JSON, v2 JSON, .yml, .properties, .json). */
  readonly environment: readonly Answer[];
  /** Everything else. */
  readonly other: readonly Answer[];
}

export async function fetchAnswer(base: string, path: string, init: RequestInit = {}): Promise<Answer> {
  const response = await fetch(`${base}${path}`, init);
  const headers = [...response.headers].map(([name, value]) => `${name}: ${value}`).join('\n');
  const request = `${init.method ?? 'GET'} ${path}`;
  return {
    request,
    status: response.status,
    text: `${response.status}\n${headers}\n\n${await response.text()}`,
  };
}

const post = (body: string): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'text/plain' },
  body,
});

export async function fetchServerAnswers(
  base: string,
  application: string,
  profiles: string,
): Promise<ServerAnswers> {
  const app = encodeURIComponent(application);
  const query = `application=${app}&profiles=${encodeURIComponent(profiles)}`;
  const environment = await Promise.all([
    fetchAnswer(base, `/${app}/${profiles}`),
    fetchAnswer(base, `/${app}/${profiles}`, {
      headers: { accept: 'application/vnd.spring-cloud.config-server.v2+json' },
    }),
    ...['yml', 'properties', 'json'].map((format) => fetchAnswer(base, `/${app}-${profiles}.${format}`)),
  ]);
  const other = await Promise.all([
    ...[
      '/actuator',
      '/actuator/health',
      '/actuator/health/git',
      '/actuator/info',
      '/actuator/prometheus',
      '/actuator/refresh-events',
      '/actuator/env',
      '/actuator/configprops',
      '/encrypt/status',
      '/key',
      `/key/${app}/${profiles}`,
      '/no-such-app/x/no-such-label',
      '/-/console/api/overview',
      '/-/console/api/session',
      '/-/console/api/labels',
      '/-/console/api/applications',
      `/-/console/api/applications/${app}/commits`,
      `/-/console/api/environment?${query}`,
      ...['yml', 'properties', 'json'].map((f) => `/-/console/api/environment/download?${query}&format=${f}`),
      `/-/console/api/diff?${query}`,
      '/-/console/api/fleet',
      '/-/console/api/refresh-events',
    ].map((path) => fetchAnswer(base, path)),
    // Error bodies of the encryption endpoints: a text that is no cipher text, and an empty body.
    fetchAnswer(base, '/decrypt', post('not-a-cipher-text')),
    fetchAnswer(base, `/decrypt/${app}/${profiles}`, post('{key:no-such-key}AQB0')),
    fetchAnswer(base, '/encrypt', post('')),
  ]);
  return { environment, other };
}
