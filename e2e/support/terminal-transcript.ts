/**
 * What a terminal shows after a README snippet ran: the JSON log lines of the servers and clients it started,
 * and between them what the snippet's own commands printed (curl bodies carry no newline, so they run into
 * each other and into the next log line). Splitting the two lets a test check each printed answer exactly,
 * in order, instead of searching the whole text for something that looks right.
 */

/** One pino line: its message and fields. */
export interface LogLine {
  readonly pid: number;
  readonly name: string;
  readonly msg: string;
  readonly [field: string]: unknown;
}

// Each process writes a log line with one write, so lines never interleave; a line runs to its newline.
const LOG_LINE = /\{"level":\d+,"time":[^\n]*\}\n/g;

export function splitTranscript(stdout: string): { logs: LogLine[]; printed: string } {
  const logs = [...stdout.matchAll(LOG_LINE)].map((match) => JSON.parse(match[0]) as LogLine);
  return { logs, printed: stdout.replace(LOG_LINE, '') };
}

/** The JSON objects and arrays written one after the other in `text` (`{"a":1}["b"]` → two); whitespace between is allowed. */
export function concatenatedJson(text: string): unknown[] {
  const values: unknown[] = [];
  let start = -1;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (char === '\\') i++;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '{' || char === '[') {
      if (depth++ === 0) start = i;
    } else if (depth === 0 && !/\s/.test(char as string)) {
      // Only objects and arrays: a bare word here is output the test did not expect.
      throw new Error(`not JSON at offset ${i}: ${JSON.stringify(text.slice(i, i + 40))}`);
    } else if (char === '"') inString = true;
    else if (char === '}' || char === ']') {
      if (--depth === 0) values.push(JSON.parse(text.slice(start, i + 1)));
    }
  }
  if (depth !== 0) throw new Error(`unterminated JSON: ${JSON.stringify(text.slice(start, start + 80))}`);
  return values;
}
