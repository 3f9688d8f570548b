/**
 * Reads the differences docs/coming-from-spring.md admits to: the topics of its table (deliberate
 * differences) and of its "Not yet matched" list (open ones, each naming the issue that will settle it).
 * The differential test fails on any difference whose topic is in neither, so the page stays true.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const PAGE = fileURLToPath(new URL('../../../docs/coming-from-spring.md', import.meta.url));
const NOT_YET_MATCHED = /^## Not yet matched\s*$/m;

export interface KnownDifferences {
  /** First cells of the table's rows. */
  readonly deliberate: ReadonlySet<string>;
  /** Bold topics (`- **topic** (#10): ...`) of the "Not yet matched" list. */
  readonly open: ReadonlyMap<string, string>;
}

export async function readKnownDifferences(): Promise<KnownDifferences> {
  const text = await readFile(PAGE, 'utf8');
  const split = text.search(NOT_YET_MATCHED);
  if (split < 0) throw new Error(`${PAGE} has no "## Not yet matched" section`);
  const deliberate = new Set<string>();
  for (const line of text.slice(0, split).split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    if (cells.length < 4 || cells[1] === 'topic' || /^-+$/.test(cells[1]!)) continue;
    deliberate.add(cells[1]!);
  }
  const open = new Map<string, string>();
  const section = text.slice(split).split(/^## /m)[1] ?? '';
  for (const match of section.matchAll(/^- \*\*(.+?)\*\*(.*)$/gm)) {
    const issue = /#\d+/.exec(match[2]!);
    if (!issue) throw new Error(`"Not yet matched" entry "${match[1]}" names no issue (#N)`);
    open.set(match[1]!, issue[0]);
  }
  return { deliberate, open };
}
