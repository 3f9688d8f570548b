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

/** Previous / next links for a paged answer; `total` undefined means "more" tells whether a next page exists. */
export function Pager(props: {
  path: string[];
  params: Record<string, string | undefined>;
  offset: number;
  limit: number;
  total?: number;
  more?: boolean;
  shown: number;
}) {
  const { offset, limit, shown } = props;
  const hasNext = props.total !== undefined ? offset + limit < props.total : props.more === true;
  const range = shown === 0 ? 'none' : `${offset + 1}–${offset + shown}`;
  return (
    <nav class="pager" aria-label="Pages">
      {offset > 0 ? (
        <a href={link(props.path, { ...props.params, offset: Math.max(0, offset - limit) })}>← Previous</a>
      ) : (
        <span />
      )}
      <span class="muted">
        {range}
        {props.total !== undefined ? ` of ${props.total}` : ''}
      </span>
      {hasNext ? (
        <a href={link(props.path, { ...props.params, offset: offset + limit })}>Next →</a>
      ) : (
        <span />
      )}
    </nav>
  );
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
