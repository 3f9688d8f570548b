/** Hash routes (`#/diff?application=foo`): deep links work without the server knowing the console's pages. */
import { useEffect, useState } from 'preact/hooks';

export interface Route {
  /** Path segments after `#/`, decoded. */
  path: string[];
  params: URLSearchParams;
}

function current(): Route {
  const hash = window.location.hash.replace(/^#\/?/, '');
  const [path = '', query = ''] = hash.split('?', 2);
  return {
    path: path
      .split('/')
      .filter((p) => p !== '')
      .map(decodeURIComponent),
    params: new URLSearchParams(query),
  };
}

export function useRoute(): Route {
  const [route, setRoute] = useState(current);
  useEffect(() => {
    const update = () => setRoute(current());
    window.addEventListener('hashchange', update);
    return () => window.removeEventListener('hashchange', update);
  }, []);
  return route;
}

/** `href` for a route: `link(['diff'], { application: 'foo' })` → `#/diff?application=foo`. */
export function link(
  path: readonly string[],
  params: Record<string, string | number | null | undefined> = {},
): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params))
    if (value !== undefined && value !== null && value !== '') query.set(key, String(value));
  const text = query.toString();
  return `#/${path.map(encodeURIComponent).join('/')}${text === '' ? '' : `?${text}`}`;
}

export function navigate(
  path: readonly string[],
  params: Record<string, string | number | null | undefined> = {},
): void {
  window.location.hash = link(path, params);
}
