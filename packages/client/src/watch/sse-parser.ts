/**
 * Server-sent events read from a text stream, by the rules of the HTML standard's "event stream
 * interpretation": lines end in LF, CR LF or CR; a blank line ends a message; `:` lines are comments
 * (heartbeats); `event`, `data` (joined by LF) and `id` are kept. Written here because Node 20 has no
 * EventSource, and the packages that add one open their own connection: the watcher needs this client's
 * agents (TLS, keep-alive), its own idle timeout and its own reconnect policy.
 */
export interface SseMessage {
  readonly event: string;
  readonly data: string;
  readonly id: string | undefined;
}

/** The longest unfinished line kept; a server sending more without a line end is not speaking SSE. */
const MAX_LINE = 1024 * 1024;

export class SseParser {
  #pending = '';
  #event = '';
  #data: string[] = [];
  #id: string | undefined;

  /** Feeds a chunk; returns the messages it completed. Throws when a line exceeds 1 MiB. */
  push(chunk: string): SseMessage[] {
    const messages: SseMessage[] = [];
    let text = this.#pending + chunk;
    // A CR at the very end may be half of a CR LF: hold it back with the unfinished line.
    const held = text.endsWith('\r') ? '\r' : '';
    if (held) text = text.slice(0, -1);
    const lines = text.split(/\r\n|\r|\n/);
    this.#pending = (lines.pop() ?? '') + held;
    if (this.#pending.length > MAX_LINE) throw new Error('an event-stream line longer than 1 MiB');
    for (const line of lines) {
      if (line === '') {
        if (this.#data.length > 0 || this.#event !== '')
          messages.push({ event: this.#event || 'message', data: this.#data.join('\n'), id: this.#id });
        this.#event = '';
        this.#data = [];
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      let value = colon === -1 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'event') this.#event = value;
      else if (field === 'data') this.#data.push(value);
      else if (field === 'id' && !value.includes('\u0000')) this.#id = value;
    }
    return messages;
  }
}
