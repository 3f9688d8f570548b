/**
 * The console's only way to the server: the documented JSON API under ./api/ (relative to the page, so the
 * console works wherever it is mounted). Errors arrive as Spring error bodies; their message is shown as is.
 */
import { useEffect, useState } from 'preact/hooks';
import { type LiveEventType, onLiveEvent } from './live.js';

export type Params = Record<string, string | number | undefined>;

/**
 * A Spring error body the server answered with. Not a ConfbusError: the console is a browser bundle that takes
 * only types from @confbus/core (types.ts), none of its code; the server declared the code, this only carries it
 * to the page.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export function apiUrl(path: string, params: Params = {}): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params))
    if (value !== undefined && value !== '') query.set(key, String(value));
  const text = query.toString();
  return `./api/${path}${text === '' ? '' : `?${text}`}`;
}

async function readAnswer<T>(response: Response): Promise<T> {
  const text = await response.text();
  const body: unknown = text === '' ? undefined : JSON.parse(text);
  if (!response.ok) {
    const error = (body ?? {}) as { code?: string; message?: string };
    throw new ApiError(response.status, error.code ?? 'HTTP', error.message ?? `HTTP ${response.status}`);
  }
  return body as T;
}

export async function getJson<T>(path: string, params: Params = {}): Promise<T> {
  return readAnswer<T>(await fetch(apiUrl(path, params), { headers: { accept: 'application/json' } }));
}

export async function postJson<T>(
  path: string,
  body: unknown,
  csrf: { header: string; token: string },
): Promise<T> {
  return readAnswer<T>(
    await fetch(apiUrl(path), {
      method: 'POST',
      headers: { 'content-type': 'application/json', [csrf.header]: csrf.token },
      body: JSON.stringify(body),
    }),
  );
}

export interface Loaded<T> {
  data: T | undefined;
  error: ApiError | Error | undefined;
  loading: boolean;
  /** Reads again now (after an action that changed what was read). */
  reload?: () => void;
}

/** Re-reads every `everyMs` while `when` holds for the data last read (a change no live event tells of). */
export interface Poll<T> {
  readonly everyMs: number;
  readonly when: (data: T) => boolean;
}

/**
 * GETs `path` now, again when the params change, again on each of the live events named, and every
 * `poll.everyMs` while `poll.when` holds for the last answer.
 */
export function useApi<T>(
  path: string | undefined,
  params: Params,
  liveOn: readonly LiveEventType[] = [],
  poll?: Poll<T>,
): Loaded<T> {
  const [state, setState] = useState<Loaded<T>>({ data: undefined, error: undefined, loading: true });
  const [generation, setGeneration] = useState(0);
  const key = path === undefined ? '' : apiUrl(path, params);
  useEffect(() => onLiveEvent(liveOn, () => setGeneration((g) => g + 1)), [liveOn.join(',')]);
  const polling = poll !== undefined && state.data !== undefined && poll.when(state.data) ? poll.everyMs : 0;
  useEffect(() => {
    if (polling === 0) return;
    const timer = setInterval(() => setGeneration((g) => g + 1), polling);
    return () => clearInterval(timer);
  }, [polling]);
  useEffect(() => {
    if (path === undefined) return;
    let current = true;
    setState((previous) => ({ ...previous, loading: true }));
    getJson<T>(path, params).then(
      (data) => current && setState({ data, error: undefined, loading: false }),
      (error: Error) => current && setState({ data: undefined, error, loading: false }),
    );
    return () => {
      current = false;
    };
  }, [key, generation]);
  return { ...state, reload: () => setGeneration((g) => g + 1) };
}
