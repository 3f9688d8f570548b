// What of git's stderr goes into an error message. Git's own reason is in its `fatal:`/`error:` lines and in
// the lines of the helper that failed (`ssh: connect to host … Connection refused`, curl's reasons); after
// them git prints a generic hint that says nothing about the cause. Keeping only the last lines (as we once
// did) kept the hint and cut the reason, so here the hint and the progress chatter go and the rest stays.

const MAX_LINES = 6;
const MAX_LINE_LENGTH = 400;

// git's hint after a failed remote command (transport.c, connect.c): true of every failure, so no signal.
const BOILERPLATE = [
  /^Please make sure you have the correct access rights$/,
  /^and the repository exists\.$/,
];
// Progress lines (ours with --progress, and the remote's): counters, not reasons.
const PROGRESS =
  /^(remote: )?(Enumerating|Counting|Compressing|Receiving|Resolving|Checking connectivity|Total|Unpacking)\b/;
const REASON = /^(fatal|error|ssh|remote: (fatal|error)|ERROR):?/i;

/** The lines of `stderr` (already redacted) worth showing, joined with " | "; '' when there are none. */
export function summarizeGitStderr(stderr: string): string {
  const lines: string[] = [];
  // ssh ends its lines with \r\n; a progress line is rewritten in place with \r (its last state is the line).
  for (const raw of stderr.replace(/\r\n/g, '\n').split('\n')) {
    const line = (raw.split('\r').pop() ?? '').trim();
    if (line === '' || PROGRESS.test(line) || BOILERPLATE.some((b) => b.test(line))) continue;
    const clipped = line.length > MAX_LINE_LENGTH ? `${line.slice(0, MAX_LINE_LENGTH)}…` : line;
    if (!lines.includes(clipped)) lines.push(clipped);
  }
  if (lines.length <= MAX_LINES) return lines.join(' | ');
  // Too many: the reasons first (in their order), then the last of the rest up to the limit.
  const reasons = lines.filter((l) => REASON.test(l)).slice(0, MAX_LINES);
  const room = MAX_LINES - reasons.length;
  const others = room > 0 ? lines.filter((l) => !REASON.test(l)).slice(-room) : [];
  const kept = new Set([...reasons, ...others]);
  return lines.filter((l) => kept.has(l)).join(' | ');
}
