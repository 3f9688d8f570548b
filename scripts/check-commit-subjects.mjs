#!/usr/bin/env node
// Fails when a commit subject is longer than 72 characters: a subject says what changed in one line that fits
// `git log --oneline` and a review tool's list, the details go in the body. Checked for every commit since the
// rule was adopted (issue #24; the commits before it are history and stay as they are). In a clone without that
// commit (shallow), the check says so and passes: there is nothing it can compare against.
import { execFileSync } from 'node:child_process';

const MAX_SUBJECT = 72;
/** The last commit before the rule was enforced. */
const ADOPTED_AFTER = 'a043871';

const git = (...args) => execFileSync('git', args, { encoding: 'utf8' });
try {
  git('cat-file', '-e', `${ADOPTED_AFTER}^{commit}`);
} catch {
  console.log(`check-commit-subjects: ${ADOPTED_AFTER} is not in this clone; nothing to check`);
  process.exit(0);
}
const long = git('log', '--format=%h %s', `${ADOPTED_AFTER}..HEAD`)
  .split('\n')
  .filter((line) => line.length > 0)
  .filter((line) => line.slice(line.indexOf(' ') + 1).length > MAX_SUBJECT);
if (long.length > 0) {
  console.error(
    `Commit subjects longer than ${MAX_SUBJECT} characters (say what changed; details in the body):`,
  );
  for (const line of long) console.error(`  ${line}`);
  process.exit(1);
}
