/**
 * SnakeYAML's scalar writers (Emitter.writePlain, writeSingleQuoted, writeDoubleQuoted, writeLiteral) for the
 * `.yml` endpoint, with their column bookkeeping: a scalar folds at the first single space once past column
 * 80 (DumperOptions' bestWidth), continuing at the scalar's indent. Ported rather than delegated to the
 * `yaml` library because its folding points differ from SnakeYAML's, and Spring's output is the reference.
 */
const BEST_WIDTH = 80;
const LINE_BREAKS = '\n\u0085\u2028\u2029';
const isBreak = (char: string | undefined): boolean => char !== undefined && LINE_BREAKS.includes(char);

const ESCAPES: Readonly<Record<string, string>> = {
  '\0': '0',
  '\u0007': 'a',
  '\b': 'b',
  '\t': 't',
  '\n': 'n',
  '\u000b': 'v',
  '\f': 'f',
  '\r': 'r',
  '\u001b': 'e',
  '"': '"',
  '\\': '\\',
  '\u0085': 'N',
  '\u00a0': '_',
  '\u2028': 'L',
  '\u2029': 'P',
};

export class FoldingWriter {
  text = '';
  private whitespace = true;
  private indention = false;

  /**
   * @param indent the column continuation lines start at
   * @param column the column the scalar starts at (just after the separating space)
   */
  constructor(
    private readonly indent: number,
    private column: number,
  ) {}

  write(data: string): void {
    this.text += data;
    this.column += data.length;
    this.whitespace = false;
  }

  /** Writes the text between spaces whole (jumping with indexOf): a value may be 256 KiB without a space. */
  plain(text: string, split: boolean): void {
    if (text === '') this.write('');
    let at = 0;
    while (at < text.length) {
      const space = text.indexOf(' ', at);
      if (space === -1) {
        this.write(text.slice(at));
        return;
      }
      if (space > at) this.write(text.slice(at, space));
      let end = space + 1;
      while (end < text.length && text.charCodeAt(end) === 0x20) end++;
      // A single space past the best width becomes the fold; a run of spaces is kept as written.
      if (end === space + 1 && this.column > BEST_WIDTH && split) this.writeIndent();
      else this.write(text.slice(space, end));
      at = end;
    }
  }

  /** Only for text without line breaks: multi-line text is never single-quoted by SnakeYAML. */
  singleQuoted(text: string, split: boolean): void {
    this.write("'");
    let spaces = false;
    let start = 0;
    for (let end = 0; end <= text.length; end++) {
      const char = end < text.length ? text[end] : undefined;
      if (spaces) {
        if (char !== ' ') {
          const fold = start + 1 === end && this.column > BEST_WIDTH && split && start !== 0;
          if (fold && end !== text.length) this.writeIndent();
          else this.write(text.slice(start, end));
          start = end;
        }
      } else if (char === undefined || char === ' ' || char === "'") {
        if (start < end) this.write(text.slice(start, end));
        start = end;
      }
      if (char === "'") {
        this.write("''");
        start = end + 1;
      }
      if (char !== undefined) spaces = char === ' ';
    }
    this.write("'");
  }

  doubleQuoted(text: string, split: boolean): void {
    this.write('"');
    let start = 0;
    for (let end = 0; end <= text.length; end++) {
      const char = end < text.length ? text[end] : undefined;
      const code = char?.charCodeAt(0) ?? 0;
      if (char === undefined || '"\\\u0085\u2028\u2029\ufeff'.includes(char) || code < 0x20 || code > 0x7e) {
        if (start < end) this.write(text.slice(start, end));
        start = end;
        if (char !== undefined) {
          const [data, width] = escape(text, end);
          this.write(data);
          end += width - 1;
          start = end + 1;
        }
      }
      const foldable = end > 0 && end < text.length - 1 && (char === ' ' || start >= end);
      if (foldable && split && this.column + (end - start) > BEST_WIDTH) {
        this.write(start >= end ? '\\' : `${text.slice(start, end)}\\`);
        if (start < end) start = end;
        this.writeIndent();
        this.whitespace = false;
        this.indention = false;
        if (text[start] === ' ') this.write('\\');
      }
    }
    this.write('"');
  }

  /** A `|` block; the last line break is left to the caller. */
  literal(text: string): void {
    this.write(`|${blockHints(text)}`);
    this.lineBreak('\n');
    let breaks = true;
    let start = 0;
    for (let end = 0; end <= text.length; end++) {
      const char = end < text.length ? text[end] : undefined;
      if (breaks) {
        if (char === undefined || !isBreak(char)) {
          for (const br of text.slice(start, end)) this.lineBreak(br);
          if (char !== undefined) this.writeIndent();
          start = end;
        }
      } else if (char === undefined || isBreak(char)) {
        this.write(text.slice(start, end));
        if (char === undefined) this.lineBreak('\n');
        start = end;
      }
      if (char !== undefined) breaks = isBreak(char);
    }
    if (this.text.endsWith('\n')) this.text = this.text.slice(0, -1);
  }

  private lineBreak(data: string): void {
    this.text += data;
    this.column = 0;
    this.whitespace = true;
    this.indention = true;
  }

  private writeIndent(): void {
    if (!this.indention || this.column > this.indent || (this.column === this.indent && !this.whitespace)) {
      this.lineBreak('\n');
    }
    if (this.indent > this.column) {
      this.text += ' '.repeat(this.indent - this.column);
      this.column = this.indent;
      this.whitespace = true;
    }
  }
}

/** Emitter.determineBlockHints: an indentation indicator for a leading space or break, then chomping. */
function blockHints(text: string): string {
  let hints = '';
  if (text[0] === ' ' || isBreak(text[0])) hints += '2';
  if (!isBreak(text[text.length - 1])) hints += '-';
  else if (text.length === 1 || isBreak(text[text.length - 2])) hints += '+';
  return hints;
}

/** The escape (or the printable character itself) for the character at `at`, and how many code units it took. */
function escape(text: string, at: number): [string, number] {
  const char = text[at] as string;
  const named = ESCAPES[char];
  if (named !== undefined) return [`\\${named}`, 1];
  const code = text.codePointAt(at) as number;
  const width = code > 0xffff ? 2 : 1;
  if (isPrintable(code)) return [String.fromCodePoint(code), width];
  const unit = char.charCodeAt(0);
  if (unit <= 0xff) return [`\\x${unit.toString(16).padStart(2, '0')}`, 1];
  if (width === 2) return [`\\U${code.toString(16).padStart(8, '0')}`, 2];
  return [`\\u${unit.toString(16).padStart(4, '0')}`, 1];
}

/** SnakeYAML's StreamReader.isPrintable (text with anything else is dumped as `!!binary`). */
export function isPrintable(code: number): boolean {
  return (
    (code >= 0x20 && code <= 0x7e) ||
    code === 0x09 ||
    code === 0x0a ||
    code === 0x0d ||
    code === 0x85 ||
    (code >= 0xa0 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    (code >= 0x10000 && code <= 0x10ffff)
  );
}
