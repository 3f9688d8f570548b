/**
 * A server-sent events reader for tests (Node 20 has no EventSource): opens a `text/event-stream` and records
 * every message as it arrives, so a test can wait (with waitFor) for the one it expects. Comment lines
 * (heartbeats) and the `retry:` field are skipped.
 */
export interface ServerSentEvent {
  readonly event: string;
  readonly data: string;
  readonly id?: string;
}

export interface EventStreamReader {
  /** Every message received so far, in order. */
  readonly events: readonly ServerSentEvent[];
  /** The first message of `event` received so far whose JSON data satisfies `matches`, if any. */
  find<T = Record<string, unknown>>(event: string, matches?: (data: T) => boolean): T | undefined;
  close(): void;
}

export async function openEventStream(
  url: string,
  headers: Record<string, string> = {},
): Promise<EventStreamReader> {
  const controller = new AbortController();
  const response = await fetch(url, { signal: controller.signal, headers });
  const type = response.headers.get('content-type') ?? '';
  if (response.status !== 200 || !type.startsWith('text/event-stream')) {
    controller.abort();
    throw new Error(`${url} answered ${response.status} ${type}, not an event stream`);
  }
  const events: ServerSentEvent[] = [];
  void (async () => {
    const decoder = new TextDecoder();
    let pending = '';
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        pending += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = pending.indexOf('\n\n')) !== -1) {
          const message = parse(pending.slice(0, end));
          pending = pending.slice(end + 2);
          if (message) events.push(message);
        }
      }
    } catch {
      // Aborted by close(), or the server went away: the recorded messages stay readable.
    }
  })();
  return {
    events,
    find<T>(event: string, matches: (data: T) => boolean = () => true): T | undefined {
      for (const message of events) {
        if (message.event !== event) continue;
        const data = JSON.parse(message.data) as T;
        if (matches(data)) return data;
      }
      return undefined;
    },
    close: () => controller.abort(),
  };
}

/** One message's lines; undefined for a block without data (a comment or `retry:`). */
function parse(block: string): ServerSentEvent | undefined {
  let event = 'message';
  let id: string | undefined;
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
    else if (field === 'id') id = value;
  }
  if (data.length === 0) return undefined;
  return { event, data: data.join('\n'), ...(id === undefined ? {} : { id }) };
}
