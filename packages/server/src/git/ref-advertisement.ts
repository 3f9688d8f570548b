// Git's ref advertisement in pkt-line framing (https://git-scm.com/docs/protocol-common, pack-protocol): what an
// upload-pack server sends first, over git:// (git-daemon-refs.ts) and smart HTTP (git-http-refs.ts) alike.
// Its errors are plain: both readers catch them and leave the listing to `git ls-remote`, whose errors users see.

/** One pkt-line: four hex digits of length (the digits included), then the payload. */
export function pktLine(text: string): Buffer {
  const payload = Buffer.from(text, 'utf8');
  return Buffer.concat([Buffer.from((payload.length + 4).toString(16).padStart(4, '0')), payload]);
}

/** Adds the complete pkt-lines of `buffer` to `refs`; 'done' at the flush packet, else the bytes consumed. */
export function readAdvertisement(buffer: Buffer, refs: Map<string, string>): number | 'done' {
  let offset = 0;
  while (buffer.length - offset >= 4) {
    const length = pktLength(buffer, offset);
    if (length === 0) return 'done';
    if (buffer.length - offset < length) break;
    const line = buffer.subarray(offset + 4, offset + length).toString('utf8');
    offset += length;
    if (line.startsWith('ERR ')) throw new Error(`remote error: ${line.slice(4).trim()}`);
    // "<oid> SP <refname>[NUL <capabilities>] LF"; the first line of an empty repository names no ref.
    const entry = line.split('\0')[0]?.replace(/\n$/, '') ?? '';
    const space = entry.indexOf(' ');
    const name = entry.slice(space + 1);
    if (space < 0) throw new Error(`unexpected ref advertisement: ${entry.slice(0, 100)}`);
    if ((name.startsWith('refs/heads/') || name.startsWith('refs/tags/')) && !name.endsWith('^{}'))
      refs.set(name, entry.slice(0, space));
  }
  return offset;
}

/**
 * Smart HTTP's answer starts with `# service=git-upload-pack` and a flush before the advertisement
 * (https://git-scm.com/docs/http-protocol): the bytes it takes, or 0 while they have not all arrived.
 */
export function readServiceHeader(buffer: Buffer): number {
  if (buffer.length < 4) return 0;
  const length = pktLength(buffer, 0);
  if (buffer.length < length + 4) return 0;
  const line = buffer.subarray(4, length).toString('utf8').replace(/\n$/, '');
  if (line !== '# service=git-upload-pack') throw new Error(`not a smart HTTP answer: ${line.slice(0, 100)}`);
  if (pktLength(buffer, length) !== 0) throw new Error('no flush after the service line');
  return length + 4;
}

/** The length field of the pkt-line at `offset` (0: a flush packet). */
function pktLength(buffer: Buffer, offset: number): number {
  const digits = buffer.subarray(offset, offset + 4).toString('latin1');
  const length = /^[0-9a-f]{4}$/i.test(digits) ? Number.parseInt(digits, 16) : NaN;
  if (Number.isNaN(length) || (length > 0 && length < 4)) throw new Error('malformed pkt-line');
  return length;
}
