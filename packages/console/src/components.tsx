/** Small pieces every view uses: loading and error states, pagination, commits and times. */
import type { ComponentChildren } from 'preact';
import type { Loaded } from './api.js';
import { link } from './router.js';
import type { Origin, Value } from './types.js';

export function shortCommit(commit: string | null | undefined): string {
  return commit ? commit.slice(0, 10) : '—';
}

export function Time({ iso }: { iso: string | null | undefined }) {
  if (!iso) return <span>—</span>;
  const date = new Date(iso);
  return (
    <time dateTime={iso} title={iso}>
      {date.toLocaleString()}
    </time>
  );
}

export function CommitId({ commit }: { commit: string | null | undefined }) {
  return (
    <code class="commit" title={commit ?? undefined}>
      {shortCommit(commit)}
    </code>
  );
}

/** A value as the API gave it (secrets arrive masked); strings quoted only when blank, to make them visible. */
export function ValueText({ value }: { value: Value }) {
  const text =
    typeof value === 'string' ? (value.trim() === '' ? JSON.stringify(value) : value) : String(value);
  return <span class={`value value-${typeof value}`}>{text}</span>;
}

export function OriginText({ origin }: { origin: Origin }) {
  return (
    <span class="origin">
      {origin.file}
      {origin.document !== undefined ? ` (document #${origin.document})` : ''}
    </span>
  );
}

/** Renders `children(data)` once loaded; a spinner line while loading, the API's message on failure. */
export function Loader<T>({
  state,
  children,
}: {
  state: Loaded<T>;
  children: (data: T) => ComponentChildren;
}) {
  if (state.error) return <ErrorBox error={state.error} />;
  if (state.data === undefined)
    return (
      <p class="muted" role="status">
        Loading…
      </p>
    );
  return <>{children(state.data)}</>;
}

export function ErrorBox({ error }: { error: Error }) {
  return (
    <p class="error" role="alert">
      {error.message}
    </p>
  );
}

/** One page of a paged answer: `total` when the API counts, else `more` tells whether a next page exists. */
export interface PageOf {
  readonly offset: number;
  readonly limit: number;
  readonly total?: number;
  readonly more?: boolean;
  readonly items: readonly unknown[];
}

/** Previous / next links under a page of results, with the range shown. */
export function Pager({
  path,
  params,
  page,
}: {
  path: string[];
  params: Record<string, string | undefined>;
  page: PageOf;
}) {
  const { offset, limit, total } = page;
  const shown = page.items.length;
  const hasNext = total !== undefined ? offset + limit < total : page.more === true;
  const range = shown === 0 ? 'none' : `${offset + 1}–${offset + shown}`;
  return (
    <nav class="pager" aria-label="Pages">
      {offset > 0 ? (
        <a href={link(path, { ...params, offset: Math.max(0, offset - limit) })}>← Previous</a>
      ) : (
        <span />
      )}
      <span class="muted">
        {range}
        {total !== undefined ? ` of ${total}` : ''}
      </span>
      {hasNext ? <a href={link(path, { ...params, offset: offset + limit })}>Next →</a> : <span />}
    </nav>
  );
}

/** A table in its scrolling wrapper, one header cell per column; `children` are the body's rows. */
export function DataTable({
  columns,
  testId,
  rowsLayout = false,
  children,
}: {
  columns: readonly string[];
  testId?: string;
  /** Narrow screens show each row as a block (`class="rows"`). */
  rowsLayout?: boolean;
  children: ComponentChildren;
}) {
  return (
    <div class="table-wrap">
      <table class={rowsLayout ? 'rows' : undefined} data-testid={testId}>
        <thead>
          <tr>
            {columns.map((column) => (
              <th scope="col" key={column}>
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** One chip per profile, each opening the environment explorer on it. */
export function ProfileChips(props: { application: string; profiles: readonly string[]; label: string }) {
  return (
    <>
      {props.profiles.map((profile) => (
        <a
          key={profile}
          class="chip"
          href={link(['environment'], {
            application: props.application,
            profiles: profile,
            label: props.label,
          })}
        >
          {profile}
        </a>
      ))}
    </>
  );
}

/** "and N more" under a list cut short; nothing when everything is shown. */
export function MoreCount({ shown, total }: { shown: number; total: number }) {
  return total > shown ? <span class="muted">and {total - shown} more</span> : null;
}

export function Section({
  title,
  children,
  actions,
}: {
  title: string;
  children: ComponentChildren;
  actions?: ComponentChildren;
}) {
  return (
    <section class="card" aria-label={title}>
      <div class="card-head">
        <h2>{title}</h2>
        {actions}
      </div>
      {children}
    </section>
  );
}
