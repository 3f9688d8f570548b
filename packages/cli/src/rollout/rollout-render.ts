/**
 * How `confbus rollout` prints the server's answers for people: a table of rollouts, one rollout (status, plan,
 * waves, instances on each commit with their health, decision log). `--json` bypasses this entirely.
 */

export interface WaveView {
  readonly instances?: number;
  readonly percent?: number;
  readonly tags?: Readonly<Record<string, string>>;
  readonly profiles?: readonly string[];
}

export interface RolloutView {
  readonly id: string;
  readonly status: string;
  readonly wave: number;
  readonly waveStartedAt: number;
  readonly createdAt: number;
  readonly plan: {
    readonly applications: readonly string[];
    readonly label: string | null;
    readonly from: string;
    readonly to: string;
    readonly waves: readonly WaveView[];
    readonly bakeMs: number;
  };
  readonly decisions: ReadonlyArray<{
    readonly at: number;
    readonly action: string;
    readonly by: string;
    readonly reason: string;
    readonly figures?: Readonly<Record<string, number | string>>;
  }>;
  readonly instances?: ReadonlyArray<{
    readonly id: string;
    readonly side: 'from' | 'to';
    readonly served: readonly string[];
    readonly health: {
      readonly status: string;
      readonly version: string | null;
      readonly rejected: boolean;
      readonly errors: number;
      readonly errorWindowMs: number;
    } | null;
  }>;
}

export function isRolloutView(body: unknown): body is RolloutView {
  const view = body as RolloutView | null;
  return (
    typeof view === 'object' &&
    view !== null &&
    typeof view.id === 'string' &&
    typeof view.status === 'string' &&
    typeof view.plan === 'object' &&
    Array.isArray(view.plan?.waves) &&
    Array.isArray(view.decisions)
  );
}

const short = (commit: string | null | undefined) => (commit ? commit.slice(0, 10) : '-');
const time = (epochMs: number) => new Date(epochMs).toISOString().replace(/\.\d{3}Z$/, 'Z');

export function waveText(wave: WaveView): string {
  const parts: string[] = [];
  if (wave.instances !== undefined) parts.push(String(wave.instances));
  if (wave.percent !== undefined) parts.push(`${wave.percent}%`);
  if (wave.tags)
    parts.push(
      `tags ${Object.entries(wave.tags)
        .map(([k, v]) => `${k}=${v}`)
        .join(',')}`,
    );
  if (wave.profiles) parts.push(`profiles ${wave.profiles.join(',')}`);
  return parts.join(' + ');
}

/** Columns padded to their widest cell; the last one is not padded. */
export function table(rows: readonly (readonly string[])[]): string[] {
  const widths =
    rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  return rows.map((row) =>
    row
      .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
      .join('  ')
      .trimEnd(),
  );
}

export function renderList(rollouts: readonly RolloutView[]): string {
  if (rollouts.length === 0) return 'No rollouts.';
  return table([
    ['ID', 'STATUS', 'WAVE', 'APPLICATIONS', 'FROM', 'TO', 'STARTED'],
    ...rollouts.map((r) => [
      r.id,
      r.status,
      `${r.wave + 1}/${r.plan.waves.length}`,
      r.plan.applications.join(','),
      short(r.plan.from),
      short(r.plan.to),
      time(r.createdAt),
    ]),
  ]).join('\n');
}

export function renderRollout(r: RolloutView): string {
  const { plan } = r;
  const waves = plan.waves
    .map((wave, index) =>
      index === r.wave && r.status !== 'completed' ? `[${waveText(wave)}]` : waveText(wave),
    )
    .join(' → ');
  const lines = [
    `rollout ${r.id}: ${r.status}, wave ${r.wave + 1} of ${plan.waves.length} since ${time(r.waveStartedAt)}`,
    `applications  ${plan.applications.join(', ')} (label ${plan.label ?? 'default'})`,
    `from (A)      ${plan.from}`,
    `to (B)        ${plan.to}`,
    `waves         ${waves}, bake ${plan.bakeMs / 1000} s each`,
  ];
  if (r.instances !== undefined) {
    const onB = r.instances.filter((i) => i.side === 'to').length;
    lines.push('', `instances: ${r.instances.length} (${onB} on B, ${r.instances.length - onB} on A)`);
    if (r.instances.length > 0)
      lines.push(
        ...table([
          ['ID', 'ON', 'SERVES', 'HEALTH', 'ERRORS'],
          ...r.instances.map((i) => [
            i.id,
            i.side === 'to' ? 'B' : 'A',
            short(i.health?.version ?? i.served.at(-1)),
            i.health === null ? 'no report' : `${i.health.status}${i.health.rejected ? ' (rejected)' : ''}`,
            i.health === null ? '-' : errorsText(i.health.errors, i.health.errorWindowMs),
          ]),
        ]).map((line) => `  ${line}`),
      );
  }
  lines.push('', 'decisions:');
  lines.push(
    ...table(r.decisions.map((d) => [time(d.at), d.action, d.by, d.reason + figuresText(d.figures)])).map(
      (line) => `  ${line}`,
    ),
  );
  return lines.join('\n');
}

function errorsText(errors: number, windowMs: number): string {
  if (windowMs <= 0) return String(errors);
  return `${errors} in ${(windowMs / 1000).toFixed(1)} s`;
}

function figuresText(figures: Readonly<Record<string, number | string>> | undefined): string {
  if (figures === undefined || Object.keys(figures).length === 0) return '';
  return ` (${Object.entries(figures)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ')})`;
}
